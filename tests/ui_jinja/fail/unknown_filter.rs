// A misspelt filter is refused at its name, with the closest one.
#[derive(promptic::Prompt)]
#[prompt("errors/unknown_filter")]
struct Page {
    name: &'static str,
}

fn main() {}
