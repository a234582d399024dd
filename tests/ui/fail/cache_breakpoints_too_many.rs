// Anthropic takes at most four cache marks in a request; a fifth breakpoint is an error.
#[derive(promptic::Prompt)]
#[prompt("breakpoints_five")]
struct Layered<'a> {
    question: &'a str,
}

fn main() {}
