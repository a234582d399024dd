#[derive(promptic::Prompt)]
#[prompt(family = "fam_dup")]
struct Summarize<'a> {
    who: &'a str,
}

fn main() {}
