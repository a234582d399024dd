// `{{> personna}}`: no `_personna.prompt`.
#[derive(promptkit::Prompt)]
#[prompt("bad_partial")]
struct Greeting {
    name: String,
}

fn main() {}
