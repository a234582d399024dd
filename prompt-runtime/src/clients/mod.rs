//! From a rendered prompt to a request: conversions of a [`Chat`](crate::Chat) and its
//! [`Message`](crate::Message)s into the request types of LLM client crates.
//!
//! Each client crate is a cargo feature named after it; nothing here sends anything.
//!
//! | feature | message | request | what the prompt's [`Meta`] fills |
//! |---|---|---|---|
//! | `async-openai` | `ChatCompletionRequestMessage` | `CreateChatCompletionRequest` | model, temperature, max completion tokens, top-p, stop, `response_format` |
//! | `genai` | `genai::chat::ChatMessage` | `ChatRequest` (system apart) | `ChatOptions`: temperature, max tokens, top-p, stop sequences, response format; `clients::genai::model_name` |
//! | `rig` | `rig::message::Message` | `CompletionRequest` (system first in the history, as rig's preamble) | model, temperature, max tokens, top-p, stop, output schema |
//! | `ollama` | `ollama_rs`'s `ChatMessage` | `ChatMessageRequest` | model, temperature, `num_predict`, top-k, top-p, stop, `format` |
//! | (always) | | [`anthropic::MessagesRequest`] | model, max tokens, temperature, top-p, top-k, stop sequences |
//!
//! A model written with its provider, as dotprompt writes it (`openai/gpt-4o`,
//! `googleai/gemini-2.0-flash`), is split as each client names models: without the
//! provider for async-openai, rig, ollama and Anthropic, as `namespace::name` for genai
//! (see [`ModelName`]). A media part becomes the client's image part; media a client cannot
//! take (a sound, a document, an image by URL where only inline data is taken) is a
//! [`ConversionError`] naming the message, never dropped.

pub mod anthropic;
#[cfg(feature = "async-openai")]
pub mod async_openai;
#[cfg(feature = "genai")]
pub mod genai;
#[cfg(feature = "ollama")]
pub mod ollama;
#[cfg(feature = "rig")]
pub mod rig;

use crate::chat::{Media, Role};
use crate::meta::Meta;

/// Why a chat or a message does not convert into a client's request: what the client
/// cannot take, and where.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ConversionError {
    /// An error in one message of a chat (counted from 1).
    InMessage {
        /// The message's place in the chat, from 1.
        number: usize,
        /// Its role.
        role: Role,
        /// What is wrong with it.
        error: Box<ConversionError>,
    },
    /// A media part the client has no part for.
    Media {
        /// The client crate.
        client: &'static str,
        /// The message's role.
        role: Role,
        /// What kind of media the client lacks (`media of type audio/mpeg`, `image by URL`).
        what: String,
        /// The media's URL (a `data:` URL is shortened).
        url: String,
    },
    /// A tool message: every client wants the id of the call it answers, which a prompt's
    /// message does not carry.
    ToolMessage {
        /// The client crate.
        client: &'static str,
    },
    /// The prompt names no model, and the request needs one.
    NoModel {
        /// The client crate.
        client: &'static str,
    },
    /// The model is written for a provider the client does not talk to.
    Provider {
        /// The client crate.
        client: &'static str,
        /// The model as written.
        model: String,
        /// Its provider prefix.
        provider: String,
    },
    /// A generation setting the request needs is missing.
    Missing {
        /// The client crate.
        client: &'static str,
        /// The setting.
        what: &'static str,
        /// Where a prompt sets it.
        how: &'static str,
    },
    /// A generation setting whose value the client cannot take.
    Config {
        /// The client crate.
        client: &'static str,
        /// The config key as written.
        key: String,
        /// Its value, as JSON.
        value: String,
        /// What the client takes.
        why: &'static str,
    },
}

impl std::fmt::Display for ConversionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConversionError::InMessage {
                number,
                role,
                error,
            } => write!(f, "message {number} ({role}): {error}"),
            ConversionError::Media {
                client,
                role,
                what,
                url,
            } => write!(
                f,
                "{client} takes no {what} in a {role} message, and this one has `{url}`"
            ),
            ConversionError::ToolMessage { client } => write!(
                f,
                "{client} needs the id of the tool call a tool message answers, which a prompt's message does not carry"
            ),
            ConversionError::NoModel { client } => write!(
                f,
                "{client} needs a model, and the prompt names none (set `model` in its frontmatter, or in the chat's `metadata` before converting)"
            ),
            ConversionError::Provider {
                client,
                model,
                provider,
            } => write!(
                f,
                "the model `{model}` is for the provider `{provider}`, which {client} does not talk to"
            ),
            ConversionError::Missing { client, what, how } => {
                write!(f, "{client} needs {what}, and the prompt sets none ({how})")
            }
            ConversionError::Config {
                client,
                key,
                value,
                why,
            } => write!(f, "`{key}` is {value}, which {client} cannot take: {why}"),
        }
    }
}

impl std::error::Error for ConversionError {}

impl ConversionError {
    /// The error as one of a chat's messages, counted from 0.
    pub(crate) fn in_message(self, index: usize, role: Role) -> ConversionError {
        ConversionError::InMessage {
            number: index + 1,
            role,
            error: Box::new(self),
        }
    }
}

/// Converts every message of a chat, naming the one that fails.
#[cfg_attr(
    not(any(
        feature = "async-openai",
        feature = "genai",
        feature = "ollama",
        feature = "rig"
    )),
    allow(dead_code)
)]
pub(crate) fn each_message<'a, T>(
    messages: impl Iterator<Item = (usize, &'a crate::Message)>,
    mut convert: impl FnMut(&'a crate::Message) -> Result<T, ConversionError>,
) -> Result<Vec<T>, ConversionError> {
    messages
        .map(|(i, m)| convert(m).map_err(|e| e.in_message(i, m.role)))
        .collect()
}

/// A media part as an error names it: a `data:` URL cut short.
pub(crate) fn media_error(
    client: &'static str,
    role: Role,
    media: &Media,
    what: &str,
) -> ConversionError {
    let url = if media.url.starts_with("data:") && media.url.len() > 40 {
        let cut = media
            .url
            .char_indices()
            .nth(40)
            .map_or(media.url.len(), |(i, _)| i);
        format!("{}…", &media.url[..cut])
    } else {
        media.url.clone()
    };
    ConversionError::Media {
        client,
        role,
        what: what.to_owned(),
        url,
    }
}

/// The MIME type of an image part: the one the prompt gives or its `data:` URL holds,
/// else the one its file extension names.
#[cfg_attr(not(any(feature = "genai", feature = "rig")), allow(dead_code))]
pub(crate) fn image_type(media: &Media) -> Option<&str> {
    media.mime_type().or_else(|| {
        let path = media.url.split(['?', '#']).next().unwrap_or_default();
        let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match extension.as_str() {
            "png" => "image/png",
            "jpg" | "jpeg" => "image/jpeg",
            "gif" => "image/gif",
            "webp" => "image/webp",
            _ => return None,
        })
    })
}

/// A model name, split from the provider dotprompt writes before it.
///
/// Only the providers of dotprompt's model names are split off (`googleai`, `vertexai`,
/// `openai`, `anthropic`, `ollama`, `mistral`, `groq`, `deepseek`, `xai`, `cohere`): a
/// slash in any other name is part of it (`meta-llama/Llama-3.3-70B`,
/// `hf.co/org/model`).
///
/// ```
/// use promptic::clients::ModelName;
///
/// let model = ModelName::parse("googleai/gemini-2.0-flash");
/// assert_eq!((model.provider, model.name), (Some("googleai"), "gemini-2.0-flash"));
/// let plain = ModelName::parse("meta-llama/Llama-3.3-70B");
/// assert_eq!((plain.provider, plain.name), (None, "meta-llama/Llama-3.3-70B"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelName<'a> {
    /// The provider, when one of the known ones is written before a `/`.
    pub provider: Option<&'a str>,
    /// The model's own name.
    pub name: &'a str,
}

/// The provider prefixes dotprompt (and the Genkit plugins that read its files) write.
const PROVIDERS: [&str; 10] = [
    "googleai",
    "vertexai",
    "openai",
    "anthropic",
    "ollama",
    "mistral",
    "groq",
    "deepseek",
    "xai",
    "cohere",
];

impl<'a> ModelName<'a> {
    /// Splits `provider/name` when the provider is a known one.
    pub fn parse(model: &'a str) -> ModelName<'a> {
        match model.split_once('/') {
            Some((provider, name)) if PROVIDERS.contains(&provider) && !name.is_empty() => {
                ModelName {
                    provider: Some(provider),
                    name,
                }
            }
            _ => ModelName {
                provider: None,
                name: model,
            },
        }
    }
}

/// The generation settings of a prompt as a request takes them, each read once with its
/// type checked: a value of the wrong type is an error, not a setting left out.
pub(crate) struct Settings {
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub top_k: Option<u64>,
    pub max_tokens: Option<u64>,
    pub stop: Vec<String>,
    // Anthropic's request has no structured-output field; each client feature reads it.
    #[cfg_attr(
        not(any(
            feature = "async-openai",
            feature = "genai",
            feature = "rig",
            feature = "ollama"
        )),
        allow(dead_code)
    )]
    pub output_schema: Option<serde_json::Value>,
}

impl Settings {
    pub(crate) fn read(meta: &Meta, client: &'static str) -> Result<Settings, ConversionError> {
        let bad = |key: &str, why: &'static str| {
            let value = meta.config.get(key).unwrap_or_default().to_owned();
            ConversionError::Config {
                client,
                key: key.to_owned(),
                value,
                why,
            }
        };
        let present =
            |keys: &[&'static str]| keys.iter().copied().find(|k| meta.config.contains_key(k));
        let number = |value: Option<f64>, keys: &[&'static str]| match (value, present(keys)) {
            (None, Some(key)) => Err(bad(key, "a number")),
            (value, _) => Ok(value),
        };
        let temperature = number(meta.temperature(), &["temperature"])?;
        let top_p = number(meta.top_p(), &["top_p", "topP"])?;
        let top_k = match (meta.top_k(), present(&["top_k", "topK"])) {
            (None, Some(key)) => return Err(bad(key, "a whole number of at least 0")),
            (value, _) => value,
        };
        let max_tokens = match (
            meta.output_token_limit(),
            present(&["max_output_tokens", "maxOutputTokens"]),
        ) {
            (None, Some(key)) => return Err(bad(key, "a whole number of at least 0")),
            (value, _) => value,
        };
        let stop = meta.stop_sequences();
        if stop.is_empty()
            && let Some(key) = present(&["stop_sequences", "stopSequences", "stop"])
            && !matches!(meta.config.get(key), Some("[]"))
        {
            return Err(bad(key, "a string or a list of strings"));
        }
        let output_schema = match meta.output_schema.as_deref() {
            Some(text) => {
                Some(
                    serde_json::from_str(text).map_err(|_| ConversionError::Config {
                        client,
                        key: "output_schema".to_owned(),
                        value: text.to_owned(),
                        why: "a JSON Schema as JSON text",
                    })?,
                )
            }
            None => None,
        };
        Ok(Settings {
            temperature,
            top_p,
            top_k,
            max_tokens,
            stop,
            output_schema,
        })
    }

    /// The max tokens as `u32`, the type most clients take.
    #[cfg_attr(
        not(any(feature = "async-openai", feature = "genai")),
        allow(dead_code)
    )]
    pub(crate) fn max_tokens_u32(
        &self,
        client: &'static str,
    ) -> Result<Option<u32>, ConversionError> {
        self.max_tokens
            .map(|n| {
                u32::try_from(n).map_err(|_| ConversionError::Config {
                    client,
                    key: "max_output_tokens".to_owned(),
                    value: n.to_string(),
                    why: "at most 4294967295",
                })
            })
            .transpose()
    }
}

/// The model a request names: the prompt's, without a provider prefix; `client_provider`
/// is the one provider (besides none) the client takes, when it talks to only one.
pub(crate) fn bare_model(
    meta: &Meta,
    client: &'static str,
    client_provider: Option<&str>,
) -> Result<Option<String>, ConversionError> {
    let Some(model) = meta.model.as_deref() else {
        return Ok(None);
    };
    let parsed = ModelName::parse(model);
    match (parsed.provider, client_provider) {
        (Some(provider), Some(only)) if provider != only => Err(ConversionError::Provider {
            client,
            model: model.to_owned(),
            provider: provider.to_owned(),
        }),
        _ => Ok(Some(parsed.name.to_owned())),
    }
}

/// A name for a structured-output schema, as OpenAI-style APIs want one (`[a-zA-Z0-9_-]`,
/// at most 64): the schema's `title`, else the prompt file's stem, else `output`.
#[cfg_attr(
    not(any(feature = "async-openai", feature = "genai")),
    allow(dead_code)
)]
pub(crate) fn schema_name(schema: &serde_json::Value, path: &str) -> String {
    let clean = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect()
    };
    if let Some(title) = schema.get("title").and_then(|t| t.as_str())
        && !title.is_empty()
    {
        return clean(title);
    }
    let file = path.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = file.split('.').next().unwrap_or_default();
    if stem.is_empty() {
        "output".to_owned()
    } else {
        clean(stem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Extra;
    use std::borrow::Cow;

    fn meta(config: &[(&'static str, &'static str)]) -> Meta {
        Meta {
            config: config.iter().copied().collect::<Extra>(),
            ..Meta::DEFAULT
        }
    }

    #[test]
    fn a_setting_of_the_wrong_type_is_an_error() {
        let error = Settings::read(&meta(&[("temperature", "\"hot\"")]), "x")
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "`temperature` is \"hot\", which x cannot take: a number"
        );
        let error = Settings::read(&meta(&[("topK", "-3")]), "x").err().unwrap();
        assert!(error.to_string().starts_with("`topK` is -3"));
        let ok = Settings::read(
            &meta(&[("stopSequences", "[\"END\"]"), ("topP", "0.5")]),
            "x",
        )
        .unwrap();
        assert_eq!((ok.stop, ok.top_p), (vec!["END".to_owned()], Some(0.5)));
    }

    #[test]
    fn the_model_loses_its_provider_or_names_the_wrong_one() {
        let with = |model: &'static str| Meta {
            model: Some(Cow::Borrowed(model)),
            ..Meta::DEFAULT
        };
        assert_eq!(
            bare_model(&with("ollama/llama3.2"), "ollama-rs", Some("ollama")).unwrap(),
            Some("llama3.2".to_owned())
        );
        assert!(matches!(
            bare_model(&with("openai/gpt-4o"), "ollama-rs", Some("ollama")),
            Err(ConversionError::Provider { .. })
        ));
        assert_eq!(
            bare_model(&with("hf.co/org/model"), "ollama-rs", Some("ollama")).unwrap(),
            Some("hf.co/org/model".to_owned())
        );
    }

    #[test]
    fn schema_names_are_what_openai_accepts() {
        let schema = serde_json::json!({"type": "object"});
        assert_eq!(schema_name(&schema, "prompts/extract.prompt"), "extract");
        let titled = serde_json::json!({"title": "Order summary"});
        assert_eq!(schema_name(&titled, "x"), "Order_summary");
        assert_eq!(schema_name(&schema, ""), "output");
    }

    #[test]
    fn image_types_come_from_the_part_or_the_url() {
        let media = |url: &str| Media {
            url: url.to_owned(),
            content_type: None,
        };
        assert_eq!(
            image_type(&media("https://x/a.JPG?size=2")),
            Some("image/jpeg")
        );
        assert_eq!(image_type(&media("https://x/a")), None);
        let long = media(&format!("data:image/png;base64,{}", "A".repeat(100)));
        let error = media_error("c", Role::User, &long, "image");
        assert!(error.to_string().ends_with("…`"), "{error}");
    }
}
