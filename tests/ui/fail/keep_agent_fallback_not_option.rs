// `{similar|(none)}` renders its fallback when the value is missing: its field is an
// `Option`.
#[derive(promptic::Prompt)]
#[prompt("keep/ask")]
struct Ask<'a> {
    text: &'a str,
    similar: &'a str,
    topic: &'a str,
}

fn main() {}
