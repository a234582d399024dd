// `{{day` never closed on its line is an error, as an unclosed `${` is.
#[derive(promptic::Prompt)]
#[prompt("braces_unclosed")]
struct BracesUnclosed<'a> {
    day: &'a str,
}

fn main() {}
