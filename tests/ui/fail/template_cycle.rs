#[derive(promptic::Prompt)]
#[prompt("cycle")]
struct Cycle;

fn main() {}
