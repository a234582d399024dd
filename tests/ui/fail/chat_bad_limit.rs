// `limit` takes a whole number.
#[derive(promptkit::Prompt)]
#[prompt("chat_limit")]
struct ChatLimit<'a> {
    day: &'a str,
    turns: &'a [promptkit::Message],
}

fn main() {}
