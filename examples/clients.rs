//! One prompt, one request per LLM client, nothing sent: `cargo run --example clients`
//! builds Anthropic's request body; `cargo run --example clients --all-features` adds
//! async-openai, genai, rig and ollama-rs (or pick them with `--features genai,rig`).
//!
//! `prompts/travel_agent.prompt` names its model (`googleai/gemini-2.5-flash`), a
//! temperature and an output schema; each conversion carries them into the client's
//! request, the model written as that client names models. For a provider the prompt does
//! not name, set the model on the chat's metadata before converting. A second Anthropic
//! request comes from `prompts/support_agent.md`, whose cache breakpoint becomes a
//! `cache_control` mark.

use promptic::chat::Message;
use promptic::{Chat, Guidance, Identity};
use std::borrow::Cow;

#[derive(promptic::Prompt)]
#[prompt("travel_agent")]
struct TravelAgent<'a> {
    traveller: &'a str,
    city: &'a str,
    nights: Option<u32>,
    interests: Option<Vec<&'a str>>,
}

/// `prompts/support_agent.md` marks where its cacheable prefix ends with
/// `{% cache_breakpoint %}`.
#[derive(promptic::Prompt)]
#[prompt("support_agent")]
struct SupportAgent<'a> {
    guidance: Guidance,
    plan: &'a str,
    turns: Vec<Message>,
    question: &'a str,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let chat: Chat = TravelAgent {
        traveller: "Sam",
        city: "Lisbon",
        nights: Some(3),
        interests: Some(vec!["food", "tiles"]),
    }
    .render()?
    .to_chat("prompts/travel_agent.prompt")?;

    // Anthropic: promptic's own typed body; the API requires a model of its own and a
    // token limit.
    let mut for_claude = chat.clone();
    let meta = for_claude.metadata.to_mut();
    meta.model = Some(Cow::Borrowed("anthropic/claude-sonnet-4-5"));
    meta.max_output_tokens = Some(1024);
    let request = promptic::anthropic::MessagesRequest::try_from(&for_claude)?;
    show("Anthropic Messages API", &request)?;

    // A prompt with a cache breakpoint: the system text is split there, and the block
    // that ends the cached prefix carries `cache_control`.
    let support = SupportAgent {
        guidance: Guidance::Lean,
        plan: "Pro",
        turns: vec![
            Message::user("Hi"),
            Message::assistant("Hello! How can I help?"),
        ],
        question: "How do I reset the router?",
    }
    .messages(&Identity::default());
    let request = promptic::anthropic::MessagesRequest::try_from(&support)?;
    show("Anthropic Messages API, with a cache breakpoint", &request)?;

    #[cfg(feature = "async-openai")]
    {
        use async_openai::types::chat::CreateChatCompletionRequest;
        // `googleai/gemini-2.5-flash` becomes `gemini-2.5-flash`, the name Gemini's
        // OpenAI-compatible endpoint takes.
        let request = CreateChatCompletionRequest::try_from(&chat)?;
        show("async-openai", &request)?;
    }

    #[cfg(feature = "genai")]
    {
        use genai::chat::{ChatOptions, ChatRequest};
        // genai takes the model, the request and the options apart.
        let model = promptic::clients::genai::model_name(&chat.metadata);
        let request = ChatRequest::try_from(&chat)?;
        let options = ChatOptions::try_from(&*chat.metadata)?;
        println!("== genai: client.exec_chat({model:?}, request, Some(&options))");
        show("genai request", &request)?;
        show("genai options", &options)?;
    }

    #[cfg(feature = "rig")]
    {
        use rig::completion::CompletionRequest;
        let request = CompletionRequest::try_from(&chat)?;
        show("rig", &request)?;
    }

    #[cfg(feature = "ollama")]
    {
        use ollama_rs::generation::chat::request::ChatMessageRequest;
        // A local model instead of the prompt's Gemini.
        let mut local = chat.clone();
        local.metadata.to_mut().model = Some(Cow::Borrowed("ollama/llama3.2"));
        let request = ChatMessageRequest::try_from(&local)?;
        show("ollama-rs", &request)?;
    }
    Ok(())
}

/// Prints a request as the JSON its client would send (or, for genai, keep).
fn show<T: serde::Serialize>(client: &str, request: &T) -> Result<(), serde_json::Error> {
    println!("== {client}\n{}\n", serde_json::to_string_pretty(request)?);
    Ok(())
}
