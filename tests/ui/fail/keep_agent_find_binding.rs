// `{find|nothing found}` is, for keep, a binding named `find`, not a retrieval.
#[derive(promptic::Prompt)]
#[prompt("keep/find_binding")]
struct Odd<'a> {
    text: &'a str,
}

fn main() {}
