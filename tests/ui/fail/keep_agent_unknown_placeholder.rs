// Every placeholder of a keep agent prompt, in its includes too, is a field of the struct
// (or a retrieval): an unknown one is an error at its line and column, with the closest
// field, which is then not reported unused as well.
#[derive(promptic::Prompt)]
#[prompt("keep/ask")]
struct Ask<'a> {
    text: &'a str,
    similr: Option<&'a str>,
}

fn main() {}
