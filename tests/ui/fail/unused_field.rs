#[derive(promptic::Prompt)]
#[prompt("day")]
struct Day<'a> {
    day: &'a str,
    weather: &'a str,
}

fn main() {}
