// A field the template never reads.
#[derive(promptkit::Prompt)]
#[prompt("unused")]
struct Greeting<'a> {
    user_name: &'a str,
    mood: &'a str,
}

fn main() {}
