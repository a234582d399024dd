// `limit` takes a whole number.
#[derive(promptic::Prompt)]
#[prompt("chat_limit")]
struct ChatLimit<'a> {
    day: &'a str,
    turns: &'a [promptic::Message],
}

fn main() {}
