#[derive(promptkit::Prompt)]
#[prompt("levels_typo")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptkit::Guidance,
}

fn main() {}
