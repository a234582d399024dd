//! What a prompt declares for the model call, read out of [`Meta`]: the generation config
//! under the names the formats write it (`top_p` in Markdown frontmatter, `topP` in
//! dotprompt's), and the config as one JSON object.

use super::{Extra, Meta};
use serde_json::Value;

impl Meta {
    /// `config.temperature`.
    ///
    /// ```
    /// use promptic::load::PromptFile;
    /// use promptic::Meta;
    ///
    /// let file = PromptFile::from_text(
    ///     "prompts/answer.md",
    ///     "{\n  \"model\": \"gpt-4o\",\n  \"config\": {\"temperature\": 0.2, \"topP\": 0.9, \"stop\": [\"END\"]}\n}\nAnswer.",
    /// )?;
    /// let meta = Meta::from_frontmatter(file.frontmatter.as_ref(), &file.source)?;
    /// assert_eq!(meta.model.as_deref(), Some("gpt-4o"));
    /// assert_eq!(meta.temperature(), Some(0.2));
    /// assert_eq!(meta.top_p(), Some(0.9));
    /// assert_eq!(meta.stop_sequences(), ["END"]);
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn temperature(&self) -> Option<f64> {
        number(&self.config, &["temperature"])
    }

    /// `config.top_p` (dotprompt: `topP`).
    pub fn top_p(&self) -> Option<f64> {
        number(&self.config, &["top_p", "topP"])
    }

    /// `config.top_k` (dotprompt: `topK`).
    pub fn top_k(&self) -> Option<u64> {
        ["top_k", "topK"]
            .iter()
            .find_map(|key| self.config.get_as::<u64>(key)?.ok())
    }

    /// `config.stop_sequences` (dotprompt: `stopSequences`; OpenAI: `stop`, a string or a
    /// list): empty when there are none.
    pub fn stop_sequences(&self) -> Vec<String> {
        for key in ["stop_sequences", "stopSequences", "stop"] {
            match self.config.get_as::<Value>(key) {
                Some(Ok(Value::String(one))) => return vec![one],
                Some(Ok(Value::Array(all))) => {
                    return all
                        .into_iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect();
                }
                _ => {}
            }
        }
        Vec::new()
    }

    /// The definitions of the tools the prompt declares, as the model call takes them
    /// (`{"name", "description", "inputSchema", ...}`): dotprompt's `toolDefs`, the tools
    /// its `tools` names that the folder's `tools.json` defines. The names it has no
    /// definition for stay in [`extra`](Meta::extra) under `tools`, as dotprompt reports
    /// them. Empty for a prompt that declares none.
    ///
    /// ```
    /// use promptic::dotprompt::Registry;
    ///
    /// let mut registry = Registry::new();
    /// let lookup = serde_json::json!({"name": "lookup", "description": "Finds an order"});
    /// registry.define_tool("lookup", lookup);
    /// let prompt = registry.parse("---\ntools: [lookup, refund]\n---\nHelp.")?;
    /// let meta = prompt.render_metadata().to_meta();
    /// assert_eq!(meta.tool_definitions()[0]["description"], "Finds an order");
    /// assert_eq!(meta.extra.get("tools"), Some(r#"["refund"]"#));
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn tool_definitions(&self) -> Vec<Value> {
        match self.extra.get_as::<Value>("toolDefs") {
            Some(Ok(Value::Array(all))) => all,
            _ => Vec::new(),
        }
    }

    /// The response length limit: `max_output_tokens`, else the config's
    /// `max_output_tokens` or `maxOutputTokens`.
    pub fn output_token_limit(&self) -> Option<u64> {
        self.max_output_tokens.or_else(|| {
            ["max_output_tokens", "maxOutputTokens"]
                .iter()
                .find_map(|key| self.config.get_as::<u64>(key)?.ok())
        })
    }
}

impl Extra {
    /// The pairs as one JSON object (a value whose text is not JSON becomes a string).
    pub fn to_json(&self) -> Value {
        let object = self
            .iter()
            .map(|(k, raw)| {
                let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::from(raw));
                (k.to_owned(), value)
            })
            .collect();
        Value::Object(object)
    }
}

fn number(config: &Extra, keys: &[&str]) -> Option<f64> {
    keys.iter().find_map(|key| config.get_f64(key)?.ok())
}
