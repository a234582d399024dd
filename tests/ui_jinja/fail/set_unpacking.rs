// Only `{% set name = value %}` is supported.
#[derive(promptic::Prompt)]
#[prompt("errors/set_unpacking")]
struct Page {
    pair: Vec<&'static str>,
}

fn main() {}
