// A section directive inside an `{% if %}` block.
#[derive(promptic::Prompt)]
#[prompt("chat_in_block")]
struct ChatInBlock<'a> {
    day: &'a str,
    note: Option<&'a str>,
}

fn main() {}
