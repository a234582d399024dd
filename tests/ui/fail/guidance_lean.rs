#[derive(promptkit::Prompt)]
#[prompt("levels_lean")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptkit::Guidance,
}

fn main() {}
