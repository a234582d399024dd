// `{% history turns %}` needs a list of messages.
#[derive(promptic::Prompt)]
#[prompt("chat_history")]
struct ChatHistory<'a> {
    day: &'a str,
    turns: &'a str,
}

fn main() {}
