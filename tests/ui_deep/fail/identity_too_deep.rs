// An identity in promptkit.json nested past the limit: one error, not a stack overflow.
#[derive(promptkit::Prompt)]
#[prompt("greet")]
struct Greet<'a> {
    name: &'a str,
}

fn main() {}
