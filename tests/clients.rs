//! The client conversions, each against golden JSON: the request body the client crate
//! serializes (Anthropic's: the shape its API documents) for four prompts — a Markdown text
//! prompt, a chat prompt with history, a Jinja prompt and a dotprompt prompt with media,
//! config and an output schema. No network.
//!
//! The golden files are `tests/clients/<client>/<prompt>.json`; `PROMPTIC_BLESS=1 cargo
//! test --all-features --test clients` rewrites them after a deliberate change (review the
//! diff).

use promptic::chat::{Chat, Message};
use promptic::dotprompt::{DataArgument, Dotprompt};
use promptic::{Guidance, Identity, Prompt, PromptValue, Role};
use std::borrow::Cow;
use std::path::Path;

#[derive(Prompt)]
#[prompt("reply")]
struct Reply<'a> {
    topic: &'a str,
    #[prompt(one_of("short", "long"))]
    length: &'a str,
}

#[derive(Prompt)]
#[prompt("journal_chat")]
struct JournalChat<'a> {
    day: &'a str,
    note: Option<&'a str>,
    turns: &'a [Message],
    question: &'a str,
}

#[derive(PromptValue)]
struct Traveller<'a> {
    name: &'a str,
}

#[derive(PromptValue)]
struct Stop<'a> {
    city: &'a str,
    nights: Option<u8>,
}

#[derive(Prompt)]
#[prompt("trip_planner")]
struct TripPlanner<'a> {
    guidance: Guidance,
    traveller: Traveller<'a>,
    stops: &'a [Stop<'a>],
    currency: Option<&'a str>,
}

/// A picture small enough for a golden file: the PNG signature, base64.
const PHOTO: &str = "data:image/png;base64,iVBORw0KGgo=";

const CAPTION: &str = r#"---
model: googleai/gemini-2.0-flash
config:
  temperature: 0.3
  maxOutputTokens: 400
  topP: 0.9
  topK: 40
  stopSequences: ["END"]
output:
  schema:
    caption: string, one sentence
    objects(array): string
---
{{role "system"}}
You write captions for a shop's catalogue.
{{role "user"}}
Caption this photo of {{subject}}: {{media url=photo contentType="image/png"}}
"#;

/// The four prompts, rendered, by name.
fn prompts() -> Vec<(&'static str, Chat)> {
    let identity = Identity::from_pairs([("preferred", "Sam")]);
    let markdown = Reply {
        topic: "tides",
        length: "short",
    }
    .render(&identity)
    .to_chat(Role::User);

    let turns = [
        Message::user("What did I do on Monday?"),
        Message::assistant("You met Ana about the garden."),
    ];
    let chat = JournalChat {
        day: "Friday",
        note: Some("call Ana"),
        turns: &turns,
        question: "And on Tuesday?",
    }
    .messages(&identity);

    let stops = [Stop {
        city: "Ghent",
        nights: Some(3),
    }];
    let mut jinja = TripPlanner {
        guidance: Guidance::Lean,
        traveller: Traveller { name: "Noor" },
        stops: &stops,
        currency: None,
    }
    .render()
    .unwrap()
    .to_chat(Role::System);
    jinja.messages.push(Message::user("Two days in Bruges?"));

    let data: DataArgument = serde_json::from_value(serde_json::json!({
        "input": {"subject": "a red bicycle", "photo": PHOTO}
    }))
    .unwrap();
    let dotprompt = Dotprompt::parse(CAPTION)
        .unwrap()
        .render(&data)
        .unwrap()
        .to_chat("prompts/caption.prompt")
        .unwrap();
    vec![
        ("markdown", markdown),
        ("chat", chat),
        ("jinja", jinja),
        ("dotprompt", dotprompt),
    ]
}

/// The prompt with a model set, for prompts that name none or name another provider's.
fn with_model(mut chat: Chat, model: Option<&'static str>) -> Chat {
    if let Some(model) = model {
        chat.metadata.to_mut().model = Some(Cow::Borrowed(model));
    }
    chat
}

/// Compares a request with its golden file (or writes it, when blessing). The body is the
/// bytes serde_json writes for it, as an HTTP client sends it, then pretty-printed.
fn golden(client: &str, prompt: &str, request: &impl serde::Serialize) {
    let body = serde_json::to_string(request).unwrap();
    let actual: serde_json::Value = serde_json::from_str(&body).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/clients")
        .join(client)
        .join(format!("{prompt}.json"));
    let text = serde_json::to_string_pretty(&actual).unwrap() + "\n";
    if std::env::var_os("PROMPTIC_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (PROMPTIC_BLESS=1 writes it)", path.display()));
    // Compared as JSON values: some client crates turn on serde_json's `preserve_order`,
    // which changes the order keys print in, not what the body says.
    let expected: serde_json::Value = serde_json::from_str(&expected).unwrap();
    assert!(
        actual == expected,
        "{client} request for the {prompt} prompt differs from {}:\n{text}",
        path.display()
    );
}

/// A chat with one message, for the error cases.
fn one(message: Message, model: &'static str) -> Chat {
    let mut chat = Chat {
        messages: vec![message],
        path: Cow::Borrowed("prompts/x.md"),
        metadata: Cow::Owned(promptic::Meta::DEFAULT),
        breakpoints: Vec::new(),
    };
    let meta = chat.metadata.to_mut();
    meta.model = Some(Cow::Borrowed(model));
    meta.max_output_tokens = Some(100);
    chat
}

fn pdf() -> Message {
    Message::user(vec![
        promptic::chat::ContentPart::text("Read this."),
        promptic::chat::ContentPart::media("https://example.com/a.pdf", Some("application/pdf")),
    ])
}

mod with_anthropic {
    use super::*;
    use promptic::anthropic::MessagesRequest;

    #[test]
    fn requests_match_the_documented_shape() {
        let models = [
            Some("claude-haiku-4-5"),
            Some("anthropic/claude-sonnet-4-5"),
            Some("claude-sonnet-4-5"),
            Some("anthropic/claude-opus-4-1"),
        ];
        for ((name, chat), model) in prompts().into_iter().zip(models) {
            let mut chat = with_model(chat, model);
            if chat.metadata.output_token_limit().is_none() {
                chat.metadata.to_mut().max_output_tokens = Some(1024);
            }
            let request = MessagesRequest::try_from(&chat).unwrap();
            golden("anthropic", name, &request);
        }
    }

    #[test]
    fn what_the_api_cannot_take_is_an_error() {
        let cases = [
            (
                one(pdf(), "claude-haiku-4-5"),
                "message 1 (user): Anthropic's Messages API takes no media of type application/pdf in a user message, and this one has `https://example.com/a.pdf`",
            ),
            (
                one(Message::tool("42"), "claude-haiku-4-5"),
                "message 1 (tool): Anthropic's Messages API needs the id of the tool call a tool message answers, which a prompt's message does not carry",
            ),
            (
                one(Message::user("hi"), "openai/gpt-4o"),
                "the model `openai/gpt-4o` is for the provider `openai`, which Anthropic's Messages API does not talk to",
            ),
        ];
        for (chat, expected) in cases {
            assert_eq!(
                MessagesRequest::try_from(&chat).unwrap_err().to_string(),
                expected
            );
        }
        let mut unlimited = one(Message::user("hi"), "claude-haiku-4-5");
        unlimited.metadata.to_mut().max_output_tokens = None;
        let error = MessagesRequest::try_from(&unlimited)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("Anthropic's Messages API needs `max_tokens`"),
            "{error}"
        );
    }
}

#[cfg(feature = "async-openai")]
mod with_async_openai {
    use super::*;
    use async_openai::types::chat::CreateChatCompletionRequest;

    #[test]
    fn requests_match_golden_json() {
        let models = [
            Some("gpt-4o-mini"),
            Some("openai/gpt-4o"),
            Some("gpt-4o"),
            None,
        ];
        for ((name, chat), model) in prompts().into_iter().zip(models) {
            let request = CreateChatCompletionRequest::try_from(&with_model(chat, model)).unwrap();
            golden(
                "async-openai",
                name,
                &serde_json::to_value(&request).unwrap(),
            );
        }
    }

    #[test]
    fn what_the_client_cannot_take_is_an_error() {
        let cases = [
            (
                one(pdf(), "gpt-4o"),
                "message 1 (user): async-openai takes no media of type application/pdf in a user message, and this one has `https://example.com/a.pdf`",
            ),
            (
                one(Message::tool("42"), "gpt-4o"),
                "message 1 (tool): async-openai needs the id of the tool call a tool message answers, which a prompt's message does not carry",
            ),
        ];
        for (chat, expected) in cases {
            assert_eq!(
                CreateChatCompletionRequest::try_from(&chat)
                    .unwrap_err()
                    .to_string(),
                expected
            );
        }
        let mut nameless = one(Message::user("hi"), "gpt-4o");
        nameless.metadata.to_mut().model = None;
        let error = CreateChatCompletionRequest::try_from(&nameless).unwrap_err();
        assert!(
            error.to_string().starts_with("async-openai needs a model"),
            "{error}"
        );
    }
}

#[cfg(feature = "genai")]
mod with_genai {
    use super::*;
    use genai::chat::{ChatOptions, ChatRequest};

    #[test]
    fn requests_match_golden_json() {
        let models = [
            Some("gpt-4o-mini"),
            Some("anthropic/claude-sonnet-4-5"),
            None,
            None,
        ];
        for ((name, chat), model) in prompts().into_iter().zip(models) {
            let chat = with_model(chat, model);
            let body = serde_json::json!({
                "model": promptic::clients::genai::model_name(&chat.metadata),
                "request": ChatRequest::try_from(&chat).unwrap(),
                "options": ChatOptions::try_from(&*chat.metadata).unwrap(),
            });
            golden("genai", name, &body);
        }
    }

    #[test]
    fn media_of_no_known_type_is_an_error() {
        let look = Message::user(vec![promptic::chat::ContentPart::media(
            "https://example.com/picture",
            None,
        )]);
        let error = ChatRequest::try_from(&one(look, "gpt-4o")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "message 1 (user): genai takes no media without a known type (give it a contentType) in a user message, and this one has `https://example.com/picture`"
        );
        // genai takes documents, by URL with their type.
        assert!(ChatRequest::try_from(&one(pdf(), "gpt-4o")).is_ok());
    }
}

#[cfg(feature = "rig")]
mod with_rig {
    use super::*;
    use rig::completion::CompletionRequest;

    #[test]
    fn requests_match_golden_json() {
        let models = [None, Some("openai/gpt-4o"), None, None];
        for ((name, chat), model) in prompts().into_iter().zip(models) {
            let request = CompletionRequest::try_from(&with_model(chat, model)).unwrap();
            golden("rig", name, &request);
        }
    }

    #[test]
    fn what_the_client_cannot_take_is_an_error() {
        let cases = [
            (
                one(pdf(), "gpt-4o"),
                "message 1 (user): rig takes no media of type application/pdf in a user message, and this one has `https://example.com/a.pdf`",
            ),
            (
                one(Message::tool("42"), "gpt-4o"),
                "message 1 (tool): rig needs the id of the tool call a tool message answers, which a prompt's message does not carry",
            ),
        ];
        for (chat, expected) in cases {
            assert_eq!(
                CompletionRequest::try_from(&chat).unwrap_err().to_string(),
                expected
            );
        }
    }
}

#[cfg(feature = "ollama")]
mod with_ollama {
    use super::*;
    use ollama_rs::generation::chat::request::ChatMessageRequest;

    #[test]
    fn requests_match_golden_json() {
        let models = [
            Some("llama3.2"),
            Some("ollama/llama3.2"),
            Some("qwen3:8b"),
            Some("ollama/llava"),
        ];
        for ((name, chat), model) in prompts().into_iter().zip(models) {
            let request = ChatMessageRequest::try_from(&with_model(chat, model)).unwrap();
            golden("ollama", name, &request);
        }
    }

    #[test]
    fn what_the_client_cannot_take_is_an_error() {
        let by_url = Message::user(vec![promptic::chat::ContentPart::media(
            "https://example.com/a.png",
            None,
        )]);
        let cases = [
            (
                one(by_url, "llava"),
                "message 1 (user): ollama-rs takes no image by URL (it takes images inline: use a base64 `data:` URL) in a user message, and this one has `https://example.com/a.png`",
            ),
            (
                one(Message::user("hi"), "googleai/gemini-2.0-flash"),
                "the model `googleai/gemini-2.0-flash` is for the provider `googleai`, which ollama-rs does not talk to",
            ),
        ];
        for (chat, expected) in cases {
            assert_eq!(
                ChatMessageRequest::try_from(&chat).unwrap_err().to_string(),
                expected
            );
        }
    }
}
