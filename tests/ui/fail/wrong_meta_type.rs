#[derive(promptic::Prompt)]
#[prompt("wrong_type")]
struct Tiered<'a> {
    day: &'a str,
}

fn main() {}
