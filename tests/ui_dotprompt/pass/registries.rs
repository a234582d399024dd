// A prompt whose output schema is named in the folder's `schemas.json` and whose tool is
// defined in `tools.json`: the derive reads both, as the `promptic` command does, and the
// render carries them.
#[derive(promptic::Prompt)]
#[prompt("ticket")]
struct Ticket<'a> {
    customer: &'a str,
}

fn main() {
    assert!(Ticket::OUTPUT_SCHEMA.contains(r#""reply""#), "{}", Ticket::OUTPUT_SCHEMA);
    let rendered = Ticket { customer: "Rosa" }.render().unwrap();
    let tools = serde_json::to_string(&rendered.metadata).unwrap();
    assert!(tools.contains("Finds an order by its number"), "{tools}");
}
