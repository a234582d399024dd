// Dict literals are outside the subset.
#[derive(promptkit::Prompt)]
#[prompt("errors/dict_literal")]
struct Page;

fn main() {}
