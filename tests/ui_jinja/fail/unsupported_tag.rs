// A Jinja tag outside the supported subset is a located error, never text passed through.
#[derive(promptkit::Prompt)]
#[prompt("macro")]
struct Page;

fn main() {}
