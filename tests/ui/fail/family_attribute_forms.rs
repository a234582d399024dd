#[derive(promptkit::Prompt)]
#[prompt(family)]
struct NoName;

#[derive(promptkit::Prompt)]
#[prompt(family = 3)]
struct NotAString;

#[derive(promptkit::Prompt)]
#[prompt(family = "fam")]
#[prompt("plain")]
struct Both;

fn main() {
    // the fallback keeps the family's items, so their uses are no further errors
    let _ = NoName::select(&promptkit::Tags::new());
    let _ = NotAString::MEMBERS;
}
