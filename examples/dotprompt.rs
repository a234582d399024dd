//! A dotprompt `.prompt` file with a partial, history and an output schema:
//! `cargo run --example dotprompt`.
//!
//! `examples/dotprompt/travel_agent.prompt` has YAML frontmatter (model, config, Picoschema
//! input and output schemas) and a Handlebars body that includes `_persona.prompt` and
//! places the conversation with `{{history}}`. It is parsed and checked once, then
//! rendered to dotprompt's messages; the compiled output schema is what a structured-output
//! API takes.

use promptkit::dotprompt::{DataArgument, Registry};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dotprompt");
    let mut registry = Registry::new();
    registry.define_partial_file(
        "persona",
        "examples/dotprompt/_persona.prompt",
        &std::fs::read_to_string(dir.join("_persona.prompt"))?,
    )?;
    let prompt = registry.parse_file(
        "examples/dotprompt/travel_agent.prompt",
        &std::fs::read_to_string(dir.join("travel_agent.prompt"))?,
    )?;

    let data: DataArgument = serde_json::from_value(serde_json::json!({
        "input": {"traveller": "Sam", "city": "Lisbon", "nights": 3, "interests": ["food", "tiles"]},
        "messages": [
            {"role": "user", "content": [{"text": "I'd like somewhere sunny."}]},
            {"role": "model", "content": [{"text": "Lisbon is sunny in May."}]}
        ]
    }))?;
    let rendered = prompt.render(&data)?;
    for message in &rendered.messages {
        let text: Vec<&str> = message.content.iter().filter_map(|p| p.text()).collect();
        println!("--- {} ---\n{}", message.role, text.concat());
    }
    println!("model: {}", rendered.metadata.model().unwrap_or("-"));
    println!(
        "output schema: {}",
        prompt.output_schema_json().unwrap_or_default()
    );
    let paths: Vec<String> = prompt
        .input_paths()
        .iter()
        .map(|p| p.segments.join("."))
        .collect();
    println!("the template reads: {}", paths.join(", "));
    Ok(())
}
