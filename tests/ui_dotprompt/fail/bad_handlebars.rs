// `{{#if}}` closed by `{{/each}}`.
#[derive(promptkit::Prompt)]
#[prompt("bad_handlebars")]
struct Greeting {
    name: String,
}

fn main() {}
