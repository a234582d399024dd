// A filter on a field of a type it cannot take is an error at the use, as Jinja2 would
// fail on it at run time: `abs` needs a number.
#[derive(promptic::PromptValue)]
struct Ticket {
    title: String,
}

#[derive(promptic::Prompt)]
#[prompt("errors/abs_of_text")]
struct Page {
    ticket: Ticket,
}

fn main() {}
