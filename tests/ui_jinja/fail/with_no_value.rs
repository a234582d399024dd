// A name in `{% with %}` without `=` and its value: one error, at the place the `=` goes,
// with the form the tag takes.
#[derive(promptic::Prompt)]
#[prompt("with_no_value")]
struct Trip<'a> {
    stops: Vec<&'a str>,
}

fn main() {}
