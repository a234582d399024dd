#[derive(promptic::Prompt)]
#[prompt(family = "fam_malformed")]
struct Summarize<'a> {
    who: &'a str,
}

fn main() {}
