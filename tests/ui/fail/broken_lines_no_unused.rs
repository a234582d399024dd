// Fields named in lines that fail to parse are not reported as unused.
#[derive(promptic::Prompt)]
#[prompt("broken_lines")]
struct Typo<'a> {
    mode: &'a str,
    note: &'a str,
}

fn main() {}
