#[derive(promptic::Prompt)]
#[prompt("levels_lean")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptic::Guidance,
}

fn main() {}
