// A registered either-or needs its reason.
#[derive(promptic::Prompt)]
#[prompt("levels_empty_reason")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptic::Guidance,
}

fn main() {}
