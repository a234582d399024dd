// A filter outside the supported subset is refused at its name.
#[derive(promptic::Prompt)]
#[prompt("errors/unknown_filter")]
struct Page {
    name: &'static str,
}

fn main() {}
