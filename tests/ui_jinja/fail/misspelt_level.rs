// A fence compared with a level that does not exist gets the closest one.
#[derive(promptkit::Prompt)]
#[prompt("errors/misspelt_level")]
struct Page {
    guidance: promptkit::Guidance,
}

fn main() {}
