#[derive(promptkit::Prompt)]
#[prompt(family = "fam_two_defaults")]
struct Summarize<'a> {
    who: &'a str,
}

fn main() {}
