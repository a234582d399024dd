#[derive(promptic::Prompt)]
#[prompt("levels_typo")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptic::Guidance,
}

fn main() {}
