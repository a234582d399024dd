#[derive(promptkit::Prompt)]
#[prompt("../pass/secret")]
struct Escape;

fn main() {}
