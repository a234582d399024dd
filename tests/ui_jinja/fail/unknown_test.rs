// A misspelt test (`is evn`) is refused, with the closest one.
#[derive(promptic::Prompt)]
#[prompt("errors/unknown_test")]
struct Page {
    n: i64,
}

fn main() {}
