// A Jinja tag outside the supported subset is a located error, never text passed through.
#[derive(promptic::Prompt)]
#[prompt("autoescape")]
struct Page;

fn main() {}
