// Every problem of a prompt is reported at once.
#[derive(promptic::Prompt)]
#[prompt("typo")]
struct Greeting<'a> {
    dya: &'a str,
}

fn main() {}
