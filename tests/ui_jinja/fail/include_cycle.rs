// Two templates that include each other.
#[derive(promptkit::Prompt)]
#[prompt("cycle_a")]
struct Page;

fn main() {}
