// A keep agent prompt's placeholders take text: no `bool`, no messages; `{get}` and
// `{find}` are retrievals, filled by the closure handed to `render`, never a field.
#[derive(promptic::Prompt)]
#[prompt("keep/ask")]
struct Ask<'a> {
    text: &'a str,
    similar: Option<&'a str>,
    topic: bool,
    get: &'a str,
}

fn main() {}
