//! A chat prompt rendered to the JSON a chat API takes: `cargo run --example chat`.
//!
//! `prompts/journal_chat.md` has a system preamble, a `context` section, the last four
//! turns of the conversation (`{% history turns limit=4 %}`) and the user's question.

use promptic::{Identity, Message, Prompt};

#[derive(Prompt)]
#[prompt("journal_chat")]
struct JournalChat<'a> {
    day: &'a str,
    note: Option<&'a str>,
    turns: &'a [Message],
    question: &'a str,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let identity = Identity::from_json(include_str!("journal.json"))?;
    let turns = [
        Message::user("What did I work on on Monday?"),
        Message::assistant("The onboarding flow: you shipped it to twenty beta users."),
        Message::user("And Tuesday?"),
        Message::assistant("Mostly the design critique, and a 5 km run in the evening."),
        Message::user("Did anyone reply about the beta?"),
        Message::assistant("Three users wrote back the same day."),
    ];
    let chat = JournalChat {
        day: "Wednesday 8 April 2026",
        note: None,
        turns: &turns,
        question: "What should I follow up on today?",
    }
    .messages(&identity);
    // For logs: each message under its section's name.
    eprintln!("{chat}\n");
    // For an OpenAI-style API: every message in order, as `{"role", "content"}`.
    println!("{}", serde_json::to_string_pretty(&chat.messages)?);
    // For an Anthropic-style API: the system text apart from the conversation.
    let conversation: Vec<&Message> = chat.conversation().collect();
    eprintln!(
        "\nsystem: {} chars; conversation: {} messages",
        chat.system_text().len(),
        conversation.len()
    );
    Ok(())
}
