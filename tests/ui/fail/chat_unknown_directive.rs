// `{% sytem %}` is a typo of a section keyword.
#[derive(promptkit::Prompt)]
#[prompt("chat_typo")]
struct ChatTypo<'a> {
    day: &'a str,
}

fn main() {}
