#[derive(promptic::Prompt)]
#[prompt("malformed")]
struct Malformed<'a> {
    day: &'a str,
}

fn main() {}
