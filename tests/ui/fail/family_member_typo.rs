#[derive(promptic::Prompt)]
#[prompt(family = "fam_typo")]
struct Summarize<'a> {
    who: &'a str,
}

fn main() {}
