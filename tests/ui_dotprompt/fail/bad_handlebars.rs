// `{{#if}}` closed by `{{/each}}`.
#[derive(promptic::Prompt)]
#[prompt("bad_handlebars")]
struct Greeting {
    name: String,
}

fn main() {}
