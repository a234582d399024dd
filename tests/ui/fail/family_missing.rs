#[derive(promptic::Prompt)]
#[prompt(family = "fma")]
struct Summarize<'a> {
    who: &'a str,
}

fn main() {}
