#[derive(promptic::Prompt)]
#[prompt(family)]
struct NoName;

#[derive(promptic::Prompt)]
#[prompt(family = 3)]
struct NotAString;

#[derive(promptic::Prompt)]
#[prompt(family = "fam")]
#[prompt("plain")]
struct Both;

fn main() {
    // the fallback keeps the family's items, so their uses are no further errors
    let _ = NoName::select(&promptic::Tags::new());
    let _ = NotAString::MEMBERS;
}
