// A misspelt name in a block of a template that extends another is reported in that
// block, with the field it most likely means.
#[derive(promptic::Prompt)]
#[prompt("errors/block_typo")]
struct Page<'a> {
    title: &'a str,
    agent: &'a str,
    tickets: Vec<&'a str>,
}

fn main() {}
