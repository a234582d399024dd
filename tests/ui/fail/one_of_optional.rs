#[derive(promptic::Prompt)]
#[prompt("guidance")]
struct Guidance<'a> {
    topic: &'a str,
    #[prompt(one_of("lean", "detailed"))]
    level: Option<&'a str>,
}

fn main() {}
