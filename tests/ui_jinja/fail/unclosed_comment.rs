// A comment that never closes would swallow the rest of the file.
#[derive(promptic::Prompt)]
#[prompt("errors/unclosed_comment")]
struct Page;

fn main() {}
