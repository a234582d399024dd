// A field the template never reads.
#[derive(promptic::Prompt)]
#[prompt("unused")]
struct Greeting<'a> {
    user_name: &'a str,
    mood: &'a str,
}

fn main() {}
