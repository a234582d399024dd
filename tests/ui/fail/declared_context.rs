// The struct and the prompt's declared `context` must agree.
#[derive(promptic::Prompt)]
#[prompt("declared")]
struct Declared<'a> {
    day: &'a str,
    mood: &'a str,
}

fn main() {}
