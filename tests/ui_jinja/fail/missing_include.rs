// An include of a file `prompts/` does not have.
#[derive(promptic::Prompt)]
#[prompt("missing_include")]
struct Page;

fn main() {}
