//! A dotprompt `.prompt` file with a partial, history and an output schema, rendered
//! through `#[derive(Prompt)]`: `cargo run --example dotprompt`.
//!
//! `prompts/travel_agent.prompt` has YAML frontmatter (model, config, Picoschema input and
//! output schemas) and a Handlebars body that includes `prompts/_persona.prompt` and places
//! the conversation with `{{history}}`. The derive reads both when this example compiles:
//! the struct below is checked against the Picoschema input (a field missing, misnamed or
//! of the wrong type is a compile error located in the prompt file), and the output schema
//! is compiled to JSON Schema in `TravelAgent::OUTPUT_SCHEMA`, what a structured-output API
//! takes.

use promptic::dotprompt::{Message, Part};

#[derive(promptic::Prompt)]
#[prompt("travel_agent")]
struct TravelAgent<'a> {
    traveller: &'a str,
    city: &'a str,
    /// `nights?: integer` in the schema: optional, so an `Option`.
    nights: Option<u32>,
    /// `interests?(array): string`.
    interests: Option<Vec<&'a str>>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let prompt = TravelAgent {
        traveller: "Sam",
        city: "Lisbon",
        nights: Some(3),
        interests: Some(vec!["food", "tiles"]),
    };
    // The conversation so far goes where the template writes `{{history}}`.
    let history = [
        Message {
            role: "user".to_owned(),
            content: vec![Part::from_text("I'd like somewhere sunny.")],
            metadata: None,
        },
        Message {
            role: "model".to_owned(),
            content: vec![Part::from_text("Lisbon is sunny in May.")],
            metadata: None,
        },
    ];
    let rendered = prompt.render_with_history(&history)?;
    for message in &rendered.messages {
        let text: Vec<&str> = message.content.iter().filter_map(|p| p.text()).collect();
        println!("--- {} ---\n{}", message.role, text.concat());
    }
    println!("model: {}", rendered.metadata.model().unwrap_or("-"));
    println!("output schema: {}", TravelAgent::OUTPUT_SCHEMA);
    Ok(())
}
