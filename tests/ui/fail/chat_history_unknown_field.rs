// `{% history turn %}` names no field: `turns` is close.
#[derive(promptic::Prompt)]
#[prompt("chat_history_name")]
struct ChatHistoryName<'a> {
    day: &'a str,
    turns: Vec<promptic::Message>,
}

fn main() {}
