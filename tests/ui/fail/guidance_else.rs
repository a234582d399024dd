#[derive(promptic::Prompt)]
#[prompt("levels_else")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptic::Guidance,
}

fn main() {}
