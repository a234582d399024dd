// Two sections named `rules`.
#[derive(promptic::Prompt)]
#[prompt("chat_duplicate")]
struct ChatDuplicate<'a> {
    day: &'a str,
}

fn main() {}
