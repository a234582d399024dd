#[derive(promptic::Prompt)]
#[prompt("segmnt")]
struct Segment;

fn main() {}
