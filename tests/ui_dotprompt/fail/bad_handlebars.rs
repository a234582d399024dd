// `{{#if}}` closed by `{{/each}}`. The code that renders the prompt compiles against the
// fallback, so the mistake is the only error.
#[derive(promptic::Prompt)]
#[prompt("bad_handlebars")]
struct Greeting {
    name: String,
}

fn main() -> Result<(), promptic::Diagnostic> {
    let greeting = Greeting { name: "Ada".to_owned() };
    let rendered = greeting.render_with_history(&[])?;
    println!("{} {}", rendered.messages.len(), Greeting::OUTPUT_SCHEMA);
    Ok(())
}
