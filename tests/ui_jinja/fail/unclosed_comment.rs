// A comment that never closes would swallow the rest of the file.
#[derive(promptkit::Prompt)]
#[prompt("errors/unclosed_comment")]
struct Page;

fn main() {}
