// An identity in promptic.json nested past the limit: one error, not a stack overflow.
#[derive(promptic::Prompt)]
#[prompt("greet")]
struct Greet<'a> {
    name: &'a str,
}

fn main() {}
