// `{{day` never closed on its line is an error, as an unclosed `${` is.
#[derive(promptkit::Prompt)]
#[prompt("braces_unclosed")]
struct BracesUnclosed<'a> {
    day: &'a str,
}

fn main() {}
