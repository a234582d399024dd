#[derive(promptic::Prompt)]
#[prompt("typo")]
struct Greeting<'a> {
    day: &'a str,
}

fn main() {}
