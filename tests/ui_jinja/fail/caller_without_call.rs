// A macro whose body calls `caller()`, called without a `{% call %}` block: one error, at the
// call, saying how to give it a body.
#[derive(promptic::Prompt)]
#[prompt("caller_without_call")]
struct Trip<'a> {
    stops: Vec<&'a str>,
}

fn main() {}
