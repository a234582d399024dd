// `{{> personna}}`: no `_personna.prompt`.
#[derive(promptic::Prompt)]
#[prompt("bad_partial")]
struct Greeting {
    name: String,
}

fn main() {}
