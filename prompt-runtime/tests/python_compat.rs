//! `safe_substitute` returns what CPython 3.11's `string.Template.safe_substitute` returns.
//!
//! The expected outputs were produced by Python and committed (`python/vectors.json`, made
//! by `python/gen_vectors.py`), so this test needs no Python. The property tests check the
//! lexer's invariants on any input.

use prompt_runtime::parse::lexer::{Token, tokenize};
use prompt_runtime::safe_substitute;
use proptest::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
use std::ops::Range;

#[derive(Deserialize)]
struct Case {
    text: String,
    vars: HashMap<String, String>,
    expected: String,
}

#[test]
fn matches_cpython_string_template() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/vectors.json");
    let json = std::fs::read_to_string(path).expect("tests/python/vectors.json is committed");
    let cases: Vec<Case> = serde_json::from_str(&json).expect("vectors.json is a list of cases");
    assert!(cases.len() > 1000, "only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, case)| {
            let got = safe_substitute(&case.text, &case.vars);
            (got != case.expected).then(|| {
                format!(
                    "case {i}: text {:?}\n  vars {:?}\n  python {:?}\n  rust   {:?}",
                    case.text, case.vars, case.expected, got
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Python; the first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn outer(token: &Token) -> Range<usize> {
    match token {
        Token::Text(span) | Token::Escape(span) | Token::InvalidBrace(span) => span.clone(),
        Token::Placeholder { span, .. } => span.clone(),
    }
}

/// Text over the characters the `$` grammar cares about, and a few that are wide in UTF-8.
fn dollar_text() -> impl Strategy<Value = String> {
    "[$${}_aAzZ19é \u{212A}\u{131}\n😀.\\-]{0,60}"
}

fn check_tokens(text: &str, base: usize) -> Result<(), TestCaseError> {
    let tokens = tokenize(text, base);
    let mut at = base;
    for token in &tokens {
        let span = outer(token);
        prop_assert_eq!(span.start, at, "tokens must tile the input: {:?}", tokens);
        prop_assert!(span.start < span.end, "empty token {:?}", token);
        let local = span.start - base..span.end - base;
        prop_assert!(text.is_char_boundary(local.start) && text.is_char_boundary(local.end));
        let piece = &text[local.clone()];
        match token {
            Token::Text(_) => {}
            Token::Escape(_) => prop_assert_eq!(piece, "$$"),
            Token::InvalidBrace(_) => prop_assert_eq!(piece, "$"),
            Token::Placeholder { name, braced, .. } => {
                let name = &text[name.start - base..name.end - base];
                prop_assert!(
                    prompt_runtime::parse::lexer::is_name(name),
                    "bad name {:?}",
                    name
                );
                let written = if *braced {
                    format!("${{{name}}}")
                } else {
                    format!("${name}")
                };
                prop_assert_eq!(piece, written);
            }
        }
        at = span.end;
    }
    prop_assert_eq!(at, base + text.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn lexer_tiles_dollar_heavy_text(text in dollar_text(), base in 0usize..1000) {
        check_tokens(&text, base)?;
    }

    #[test]
    fn lexer_tiles_any_text(text in any::<String>()) {
        check_tokens(&text, 0)?;
    }

    #[test]
    fn empty_map_only_unescapes_dollars(text in dollar_text()) {
        prop_assert_eq!(safe_substitute(&text, &HashMap::new()), text.replace("$$", "$"));
    }
}
