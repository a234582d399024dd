// A static prompt may not use an identity key or a free-text value, even in a template.
#[derive(promptic::Prompt)]
#[prompt("static_prompt")]
struct Static<'a> {
    guidance: promptic::Guidance,
    day: &'a str,
}

fn main() {}
