#[derive(promptic::Prompt)]
#[prompt(family = "fam_chat")]
struct Greeting<'a> {
    who: &'a str,
}

fn main() {}
