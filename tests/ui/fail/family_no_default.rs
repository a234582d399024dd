#[derive(promptic::Prompt)]
#[prompt(family = "fam_nodefault")]
struct Summarize<'a> {
    who: &'a str,
}

fn main() {}
