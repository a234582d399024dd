// An include may not leave `prompts/`.
#[derive(promptic::Prompt)]
#[prompt("errors/dotdot_include")]
struct Page;

fn main() {}
