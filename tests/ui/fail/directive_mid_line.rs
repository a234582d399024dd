#[derive(promptic::Prompt)]
#[prompt("mid_line")]
struct MidLine<'a> {
    day: &'a str,
    note: Option<&'a str>,
}

fn main() {}
