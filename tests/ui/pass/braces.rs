// `{{name}}` placeholders mean what `$name` means; `$` is text in such a file.
use promptic::{Identity, Prompt};

#[derive(Prompt)]
#[prompt("braces")]
struct Braces<'a> {
    day: &'a str,
    note: Option<&'a str>,
}

fn main() {
    let identity = Identity::from_json(r#"{"preferred": "sam"}"#).unwrap();
    let out = Braces {
        day: "Friday",
        note: Some("bring the notes"),
    }
    .render(&identity);
    assert_eq!(
        out.text,
        "Hello Sam, today is Friday; $5 stays as written.\nNote: bring the notes"
    );
    assert_eq!(out.metadata.title.as_deref(), Some("Braces"));
}
