// `name: strnig` is no Picoschema type.
#[derive(promptkit::Prompt)]
#[prompt("bad_picoschema")]
struct Greeting {
    name: String,
}

fn main() {}
