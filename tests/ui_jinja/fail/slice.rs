// Slices are outside the subset.
#[derive(promptkit::Prompt)]
#[prompt("errors/slice")]
struct Page {
    name: &'static str,
}

fn main() {}
