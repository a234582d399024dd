// A field whose type is neither text nor `Display` is an error at the field, naming the
// placeholder it fills.
#[derive(promptic::Prompt)]
#[prompt("keep/ask")]
struct Ask<'a> {
    text: &'a str,
    similar: Option<Vec<&'a str>>,
    topic: &'a str,
}

fn main() {}
