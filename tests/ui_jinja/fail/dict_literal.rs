// Dict literals are read at run time, not compiled by the derive: an error at the literal.
#[derive(promptic::Prompt)]
#[prompt("errors/dict_literal")]
struct Page;

fn main() {}
