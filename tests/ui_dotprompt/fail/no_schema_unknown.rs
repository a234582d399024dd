// A prompt without an input schema reads `naem`; the struct has `name`.
#[derive(promptic::Prompt)]
#[prompt("no_schema")]
struct Greeting {
    name: String,
}

fn main() {}
