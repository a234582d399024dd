// `guidance` is reserved for the level.
#[derive(promptic::Prompt)]
#[prompt("levels_typo")]
struct Levels<'a> {
    topic: &'a str,
    guidance: &'a str,
}

fn main() {}
