#[derive(promptkit::Prompt)]
#[prompt("cycle")]
struct Cycle;

fn main() {}
