#[derive(promptkit::Prompt)]
#[prompt("day")]
struct Tuple<'a>(&'a str);

fn main() {}
