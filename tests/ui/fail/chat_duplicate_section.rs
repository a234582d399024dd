// Two sections named `rules`.
#[derive(promptkit::Prompt)]
#[prompt("chat_duplicate")]
struct ChatDuplicate<'a> {
    day: &'a str,
}

fn main() {}
