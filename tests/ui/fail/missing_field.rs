#[derive(promptic::Prompt)]
#[prompt("segment")]
struct Segment<'a> {
    day: &'a str,
    segment_start: &'a str,
}

fn main() {}
