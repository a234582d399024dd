#[derive(promptic::Prompt)]
#[prompt("unbalanced")]
struct Unbalanced<'a> {
    day: &'a str,
    note: Option<&'a str>,
}

fn main() {}
