#[derive(promptic::Prompt)]
#[prompt("day")]
struct Tuple<'a>(&'a str);

fn main() {}
