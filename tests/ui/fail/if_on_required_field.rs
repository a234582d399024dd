#[derive(promptic::Prompt)]
#[prompt("if_text")]
struct IfText<'a> {
    day: &'a str,
}

fn main() {}
