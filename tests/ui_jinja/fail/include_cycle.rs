// Two templates that include each other.
#[derive(promptic::Prompt)]
#[prompt("cycle_a")]
struct Page;

fn main() {}
