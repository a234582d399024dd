// Dict literals are outside the subset.
#[derive(promptic::Prompt)]
#[prompt("errors/dict_literal")]
struct Page;

fn main() {}
