// An include may not leave `prompts/`.
#[derive(promptkit::Prompt)]
#[prompt("errors/dotdot_include")]
struct Page;

fn main() {}
