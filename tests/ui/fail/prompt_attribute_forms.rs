#[derive(promptic::Prompt)]
#[prompt(day)]
struct NotALiteral<'a> {
    day: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("day")]
#[prompt("day")]
struct Twice<'a> {
    day: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("day")]
struct SameName<'a> {
    day: &'a str,
    #[prompt(rename = "day")]
    other: &'a str,
}

fn main() {}
