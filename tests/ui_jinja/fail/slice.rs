// Slices are outside the subset.
#[derive(promptic::Prompt)]
#[prompt("errors/slice")]
struct Page {
    name: &'static str,
}

fn main() {}
