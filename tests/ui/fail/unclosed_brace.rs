#[derive(promptic::Prompt)]
#[prompt("unclosed")]
struct Unclosed<'a> {
    day: &'a str,
}

fn main() {}
