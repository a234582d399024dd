// A prompt file that is a symlink out of prompts/ is refused.
#[derive(promptic::Prompt)]
#[prompt("escape_link")]
struct Escape<'a> {
    day: &'a str,
}

fn main() {}
