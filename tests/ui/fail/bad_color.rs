#[derive(promptic::Prompt)]
#[prompt("bad_color")]
struct Colored<'a> {
    day: &'a str,
}

fn main() {}
