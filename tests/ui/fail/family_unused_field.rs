#[derive(promptic::Prompt)]
#[prompt(family = "fam")]
struct Greeting<'a> {
    who: &'a str,
    note: Option<&'a str>,
    mood: &'a str,
}

fn main() {}
