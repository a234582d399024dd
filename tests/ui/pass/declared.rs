// A struct that matches the declared context.
use promptic::{Identity, Prompt};

#[derive(Prompt)]
#[prompt("declared")]
struct Declared<'a> {
    day: &'a str,
    note: Option<&'a str>,
}

fn main() {
    let out = Declared { day: "Friday", note: None }.render(&Identity::default());
    assert_eq!(out.text, "Today is Friday.");
}
