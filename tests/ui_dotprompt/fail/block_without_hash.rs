// `{{if urgent}}`: a block helper without `#`, which JavaScript cannot render either.
#[derive(promptic::Prompt)]
#[prompt("if_inline")]
struct Ticket {
    urgent: bool,
}

fn main() {}
