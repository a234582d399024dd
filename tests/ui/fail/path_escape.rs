#[derive(promptic::Prompt)]
#[prompt("../pass/secret")]
struct Escape;

fn main() {}
