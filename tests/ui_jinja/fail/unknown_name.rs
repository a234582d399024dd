// A name the template reads that no field gives: an error at its use, with the closest field.
#[derive(promptic::Prompt)]
#[prompt("typo")]
struct Greeting<'a> {
    user_name: &'a str,
}

fn main() {}
