// `name: strnig` is no Picoschema type.
#[derive(promptic::Prompt)]
#[prompt("bad_picoschema")]
struct Greeting {
    name: String,
}

fn main() {}
