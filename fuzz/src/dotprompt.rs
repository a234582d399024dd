//! The dotprompt front end at run time: `Registry::define_partial` of a partial, `parse`
//! of a source against it, then `render` (twice: the same result), `render_metadata` and
//! the rendered prompt's JSON.
//!
//! Input: `DATA 0xFF SOURCE 0xFF PARTIAL`: `DATA` is a `DataArgument` as JSON (`input`,
//! `context`, `messages`; anything else renders with none), the partial is registered as
//! `p` (when it parses). Bytes that are not UTF-8 are read lossily.

use prompt_runtime::formats::dotprompt::{DataArgument, Registry};

pub fn run(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0xFF);
    let argument: DataArgument =
        serde_json::from_slice(parts.next().unwrap_or_default()).unwrap_or_default();
    let source = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let partial = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let mut registry = Registry::new();
    if let Err(diagnostics) = registry.define_partial("p", &partial) {
        let _ = diagnostics.to_string();
    }
    let prompt = match registry.parse(&source) {
        Ok(prompt) => prompt,
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
            return;
        }
    };
    let _ = prompt.render_metadata();
    let first = prompt.render(&argument);
    let again = prompt.render(&argument);
    assert_eq!(
        first.as_ref().map_err(|e| e.to_string()),
        again.as_ref().map_err(|e| e.to_string()),
        "the same data renders the same way"
    );
    match first {
        Ok(rendered) => {
            let json = serde_json::to_string(&rendered).expect("a rendered prompt serializes");
            assert!(!json.is_empty());
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    let _ = prompt.render(&DataArgument::default());
}
