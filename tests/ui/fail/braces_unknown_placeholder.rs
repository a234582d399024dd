// A misspelt `{{ preferd }}` is an unknown placeholder, quoted as it is written.
#[derive(promptic::Prompt)]
#[prompt("braces_typo")]
struct BracesTypo<'a> {
    day: &'a str,
}

fn main() {}
