// `{% sytem %}` is a typo of a section keyword.
#[derive(promptic::Prompt)]
#[prompt("chat_typo")]
struct ChatTypo<'a> {
    day: &'a str,
}

fn main() {}
