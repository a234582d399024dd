// A field whose type is neither text nor `Display` is reported at the field, naming the
// placeholder that renders it and the types a placeholder takes.
#[derive(promptic::Prompt)]
#[prompt("unrenderable")]
struct Unrenderable<'a> {
    day: &'a str,
    scores: Vec<u32>,
}

fn main() {}
