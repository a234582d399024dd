#[derive(promptic::Prompt)]
#[prompt("day")]
struct Day<'a> {
    #[prompt(rename = "the day")]
    day: &'a str,
    #[prompt(renamed = "x")]
    other: &'a str,
    #[prompt(one_of())]
    level: &'a str,
}

fn main() {}
