// A registered either-or needs its reason.
#[derive(promptkit::Prompt)]
#[prompt("levels_empty_reason")]
struct Levels<'a> {
    topic: &'a str,
    guidance: promptkit::Guidance,
}

fn main() {}
