#[derive(promptkit::Prompt)]
#[prompt("levels_else")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptkit::Guidance,
}

fn main() {}
