#[derive(promptic::Prompt)]
struct NoName<'a> {
    day: &'a str,
}

fn main() {}
