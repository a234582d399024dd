// A test outside the supported subset (`is even`) is refused.
#[derive(promptic::Prompt)]
#[prompt("errors/unknown_test")]
struct Page {
    n: i64,
}

fn main() {}
