#[derive(promptkit::Prompt)]
#[prompt("segmnt")]
struct Segment;

fn main() {}
