//! A PromptEngine store folder from memory: `Defaults::from_files` (manifests, registries
//! and domain files, checked), then a `Store` with a value for every static and computed
//! key, rendered every way it renders: `resolve_prompt`, `build_system_prompt`,
//! `render_chat_message_sequence`, `get_dialog_injections`, the other assemblies and the
//! plan, `set_enabled`, and every edit (`reorder_prompts`, `add_placeholder`, `create_prompt`, `update_prompt`,
//! `reset_prompt_to_default`, `delete_prompt`, `remove_placeholder`, `factory_reset`; in
//! memory: the store has no user folder, so nothing is written).
//!
//! Input: files, each ended by a `0xFF` byte (never part of UTF-8 text), each named by its
//! first line, the path relative to the folder:
//!
//! ```text
//! _meta/prompt_manifest.json \n JSON 0xFF _meta/placeholder_registry.json \n JSON 0xFF NAME \n JSON ...
//! ```
//!
//! A file's bytes go in as they are (so a file that is not UTF-8 is reported, not read
//! lossily).

use prompt_runtime::Message;
use prompt_runtime::store::{Defaults, Phase, StoreError};
use prompt_store::Store;

/// One input: loading either gives defaults or diagnostics that render; a store opened
/// with every value renders without a missing value, deterministically, into tidy text.
pub fn run(data: &[u8]) {
    let files: Vec<(&str, &[u8])> = data
        .split(|&b| b == 0xFF)
        .filter_map(|file| {
            let (name, body) = match file.iter().position(|&b| b == b'\n') {
                Some(at) => (&file[..at], &file[at + 1..]),
                None => (file, &[][..]),
            };
            Some((std::str::from_utf8(name).ok()?, body))
        })
        .collect();
    let defaults = match Defaults::from_files("persona_prompts", &files) {
        Ok(defaults) => defaults,
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
            return;
        }
    };

    let keys: Vec<(String, Phase)> = defaults
        .placeholders()
        .map(|(name, phase)| (name.to_owned(), phase))
        .collect();
    // Without values the store opens only when defaults cover every key; either way it
    // must not panic.
    if let Err(error) = Store::builder(defaults.clone()).open() {
        let _ = error.to_string();
    }
    let mut builder = Store::builder(defaults.clone());
    for (i, (name, phase)) in keys.iter().enumerate() {
        // Values that look like placeholders stay as they are; none holds a newline, so
        // the tidying below is the text's own.
        let value = format!("<{name} {{{{{name}}}}}>");
        builder = match (phase, i % 2) {
            (Phase::Runtime, _) => builder,
            (_, 0) => builder.static_value(name.clone(), value),
            (_, _) => builder.computed(name.clone(), move || value.clone()),
        };
    }
    let store = match builder.open() {
        Ok(store) => store,
        Err(error) => panic!("a store with every static and computed value fails to open: {error}"),
    };

    let values: Vec<(String, String)> = keys
        .iter()
        .filter(|(_, phase)| *phase == Phase::Runtime)
        .map(|(name, _)| (name.clone(), format!("[{name} {{{{x}}}}]")))
        .collect();
    let all: Vec<(&str, &str)> = values
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    // An empty value is no value for `requires_any`.
    let empty: Vec<(&str, &str)> = all.iter().map(|&(k, _)| (k, "")).collect();

    let mut variants: Vec<String> = vec!["default".to_owned(), "no_such_variant".to_owned()];
    for prompt in defaults.prompts() {
        for variant in prompt.variants() {
            if !variants.iter().any(|v| v == variant) {
                variants.push(variant.to_owned());
            }
        }
    }
    variants.truncate(8);
    let ids: Vec<String> = defaults.prompt_ids().map(str::to_owned).collect();

    for runtime in [&all[..], &empty[..], &[]] {
        let complete = runtime.len() == all.len() && runtime.iter().all(|(_, v)| !v.is_empty());
        for variant in &variants {
            for id in ids.iter().take(16) {
                let result = store.resolve_prompt(id, variant, runtime);
                assert_same(&result, &store.resolve_prompt(id, variant, runtime));
                match result {
                    Ok(text) => assert_tidy(&text),
                    Err(error) => check_error(&error, complete),
                }
            }
            let system = store.build_system_prompt(variant, runtime);
            assert_same(&system, &store.build_system_prompt(variant, runtime));
            match &system {
                Ok(text) => assert_tidy(text),
                Err(error) => check_error(error, complete),
            }
            match store.render_chat_message_sequence(variant, runtime) {
                Ok(messages) => {
                    check_messages(&messages);
                    if let Ok(text) = &system
                        && !text.is_empty()
                    {
                        let first = messages.first().map(|m| (m.section.as_ref(), m.text()));
                        assert_eq!(
                            first,
                            Some(("system_prompt", text.as_str().into())),
                            "the sequence starts with the system prompt"
                        );
                    }
                }
                Err(error) => check_error(&error, complete),
            }
            match store.get_dialog_injections(variant, runtime) {
                Ok(messages) => check_messages(&messages),
                Err(error) => check_error(&error, complete),
            }
            for text in [
                store.get_system_prompt_append(variant, runtime),
                store.build_prefill(variant, runtime),
                store.get_first_assistant_content(variant, runtime),
                store.build_system_prompt_filtered(variant, runtime, "summary"),
                store.build_prefill_filtered(variant, runtime, "summary"),
            ] {
                match text {
                    Ok(text) => assert_tidy(&text),
                    Err(error) => check_error(&error, complete),
                }
            }
            let plan = store.get_chat_message_sequence(variant);
            assert!(
                plan.windows(2).all(|w| w[0].order <= w[1].order),
                "the plan is in order: {plan:?}"
            );
            store.get_current_values(variant, runtime);
        }
    }

    let unknown = store.resolve_prompt("\u{0}no such prompt", "default", &all);
    assert!(
        matches!(unknown, Err(StoreError::UnknownPrompt { .. })),
        "an unknown id is an unknown prompt: {unknown:?}"
    );

    // Turning each variant of the first prompts off (in memory), then rendering again.
    for id in ids.iter().take(4) {
        for variant in &variants {
            match store.set_enabled(id, variant, false) {
                Ok(()) => assert_eq!(
                    store.is_enabled(id, variant),
                    Some(false),
                    "{id}/{variant} is off once turned off"
                ),
                Err(error) => {
                    let _ = error.to_string();
                }
            }
        }
    }
    rerender(&store, &variants, &all);

    // The edits (in memory): each is accepted or refused whole, and the store renders
    // after either.
    let reversed: Vec<&str> = ids.iter().rev().map(String::as_str).collect();
    edited(&store, store.reorder_prompts(&reversed), &variants, &all);
    let mut twice: Vec<&str> = ids.iter().take(1).map(String::as_str).collect();
    twice.extend(ids.first().map(String::as_str));
    assert!(
        twice.len() < 2 || store.reorder_prompts(&twice).is_err(),
        "an id listed twice is refused"
    );
    // The input's own text as a new placeholder's value, a new prompt and an edit.
    let text = String::from_utf8_lossy(data);
    let sample: String = text.chars().take(200).collect();
    edited(
        &store,
        store.add_placeholder("fuzz_key", &sample),
        &variants,
        &all,
    );
    let added = store.user_placeholders().iter().any(|k| k == "fuzz_key");
    edited(
        &store,
        store.create_prompt("fuzz_prompt", &sample),
        &variants,
        &all,
    );
    if let Some(id) = ids.first() {
        edited(
            &store,
            store.update_prompt(id, "default", &sample),
            &variants,
            &all,
        );
        edited(&store, store.reset_prompt_to_default(id), &variants, &all);
    }
    edited(&store, store.delete_prompt("fuzz_prompt"), &variants, &all);
    if added {
        let removed = store.remove_placeholder("fuzz_key");
        edited(&store, removed, &variants, &all);
    }
    edited(&store, store.factory_reset(), &variants, &all);
    assert!(
        store.user_placeholders().is_empty(),
        "a factory reset removes the user placeholders"
    );
}

/// After an edit, accepted or refused: the error renders, and so does the store.
fn edited(
    store: &Store,
    result: Result<(), StoreError>,
    variants: &[String],
    all: &[(&str, &str)],
) {
    if let Err(error) = result {
        let _ = error.to_string();
    }
    rerender(store, variants, all);
}

fn rerender(store: &Store, variants: &[String], all: &[(&str, &str)]) {
    for variant in variants {
        if let Ok(text) = store.build_system_prompt(variant, all) {
            assert_tidy(&text);
        }
        if let Ok(messages) = store.render_chat_message_sequence(variant, all) {
            check_messages(&messages);
        }
    }
}

/// Two renders of the same thing give the same result.
fn assert_same<T: PartialEq + std::fmt::Debug>(
    a: &Result<T, StoreError>,
    b: &Result<T, StoreError>,
) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the same render twice"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "the same error twice"),
        _ => panic!("the same render twice gives {a:?}, then {b:?}"),
    }
}

/// PromptEngine's tidying: no run of three newlines, nothing to strip at either end.
fn assert_tidy(text: &str) {
    assert!(!text.contains("\n\n\n"), "three newlines in {text:?}");
    let is_space = |c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c);
    assert_eq!(
        text.trim_matches(is_space),
        text,
        "white space at an end of {text:?}"
    );
}

/// Every message is tidy and not empty (empty ones are dropped).
fn check_messages(messages: &[Message]) {
    for message in messages {
        assert!(!message.content.is_empty(), "an empty message is dropped");
        assert_tidy(&message.text());
    }
}

/// An error renders; with every runtime value given, none is missing.
fn check_error(error: &StoreError, complete: bool) {
    let _ = error.to_string();
    if complete {
        assert!(
            !matches!(error, StoreError::MissingRuntime { .. }),
            "every runtime value was given, yet: {error}"
        );
    }
}
