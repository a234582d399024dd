#[derive(promptic::Prompt)]
#[prompt("guidance")]
struct Guidance<'a> {
    topic: &'a str,
    #[prompt(one_of("lean", "detialed"))]
    level: &'a str,
}

fn main() {}
