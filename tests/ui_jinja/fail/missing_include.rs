// An include of a file `prompts/` does not have.
#[derive(promptkit::Prompt)]
#[prompt("missing_include")]
struct Page;

fn main() {}
