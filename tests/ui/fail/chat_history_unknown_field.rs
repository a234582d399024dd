// `{% history turn %}` names no field: `turns` is close.
#[derive(promptkit::Prompt)]
#[prompt("chat_history_name")]
struct ChatHistoryName<'a> {
    day: &'a str,
    turns: Vec<promptkit::Message>,
}

fn main() {}
