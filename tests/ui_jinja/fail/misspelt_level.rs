// A fence compared with a level that does not exist gets the closest one.
#[derive(promptic::Prompt)]
#[prompt("errors/misspelt_level")]
struct Page {
    guidance: promptic::Guidance,
}

fn main() {}
