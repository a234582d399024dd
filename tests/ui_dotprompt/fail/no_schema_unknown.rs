// A prompt without an input schema reads `naem`; the struct has `name`.
#[derive(promptkit::Prompt)]
#[prompt("no_schema")]
struct Greeting {
    name: String,
}

fn main() {}
