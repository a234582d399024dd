// `| length` of a field that holds a number: Jinja2 fails on it too.
#[derive(promptic::PromptValue)]
struct Inbox {
    unread: u32,
}

#[derive(promptic::Prompt)]
#[prompt("errors/length_of_number")]
struct Status {
    inbox: Inbox,
}

fn main() {}
