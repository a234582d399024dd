// `_persona2.prompt` has an `{{#if}}` it never closes.
#[derive(promptic::Prompt)]
#[prompt("broken_partial")]
struct Greeting {
    name: String,
}

fn main() {}
