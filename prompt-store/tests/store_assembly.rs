//! PromptEngine's assembly rules, restated over a folder written for these tests in the
//! shape of PersonaUI's (positions, categories, a variant condition, `requires_any`, values
//! from source documents and compute functions): which prompts each operation takes, in
//! which order, and the text each renders.

use promptic::store::{Defaults, SequenceEntry, Store, StoreError, Target};
use promptic::{Message, Role};
use serde_json::json;

const MANIFEST: &str = r#"{"version": "2.0", "prompts": {
  "identity":      {"domain_file": "identity.json", "category": "system", "order": 100},
  "voice":         {"domain_file": "voice.json", "category": "persona", "order": 300, "position": "system_prompt"},
  "beta_hint":     {"domain_file": "beta_hint.json", "category": "system", "order": 350, "variant_condition": "experimental"},
  "memory":        {"domain_file": "memory.json", "category": "context", "order": 2000, "requires_any": ["memory_notes", "soul_notes"]},
  "later_note":    {"domain_file": "later_note.json", "category": "afterthought", "order": 800, "position": "system_prompt_append"},
  "recap_system":  {"domain_file": "recap_system.json", "category": "summary", "order": 100},
  "autofill_core": {"domain_file": "autofill_core.json", "category": "spec_autofill", "order": 100},
  "cortex_rules":  {"domain_file": "cortex_rules.json", "category": "cortex", "order": 100},
  "off_rule":      {"domain_file": "off_rule.json", "category": "system", "order": 50, "enabled": false},
  "chat_log":      {"domain_file": "chat_log.json", "target": "message", "position": "history", "category": "context", "order": 200},
  "opening":       {"domain_file": "opening.json", "target": "message", "position": "first_assistant", "category": "context", "order": 150},
  "musing":        {"domain_file": "musing.json", "target": "message", "position": "user_message", "category": "afterthought", "order": 100},
  "title":         {"domain_file": "title.json", "target": "message", "position": "first_assistant", "category": "utility", "order": 10},
  "in_character":  {"domain_file": "in_character.json", "target": "prefill", "position": "prefill", "category": "prefill", "order": 300},
  "recap_start":   {"domain_file": "recap_start.json", "target": "prefill", "position": "prefill", "category": "summary", "order": 5},
  "beta_prefill":  {"domain_file": "beta_prefill.json", "target": "prefill", "category": "prefill", "order": 300, "variant_condition": "experimental"},
  "consent":       {"domain_file": "consent.json", "type": "multi_turn", "target": "message", "position": "consent_dialog", "category": "dialog_injection", "order": 10, "variant_condition": "experimental"},
  "examples":      {"domain_file": "examples.json", "type": "multi_turn", "target": "message", "category": "custom", "order": 20}
}}"#;

const REGISTRY: &str = r#"{"version": "2.0", "placeholders": {
  "char_name":   {"resolve_phase": "static", "type": "string", "source": "persona_config", "source_path": "persona_settings.name", "default": "Assistant"},
  "char_age":    {"resolve_phase": "static", "type": "number", "source": "persona_config", "source_path": "persona_settings.age", "default": 18},
  "char_height": {"resolve_phase": "static", "type": "number", "source": "persona_config", "source_path": "persona_settings.height_m", "default": 1.7},
  "char_shy":    {"resolve_phase": "static", "type": "string", "source": "persona_config", "source_path": "persona_settings.shy", "default": true},
  "user_name":   {"resolve_phase": "static", "type": "string", "source": "user_profile", "source_path": "user_name", "default": "User"},
  "user_likes":  {"resolve_phase": "static", "type": "list", "source": "user_profile", "source_path": "user_interested_in", "default": "Not specified"},
  "user_tags":   {"resolve_phase": "static", "type": "list", "source": "user_profile", "source_path": "tags", "join_separator": " / "},
  "today":       {"resolve_phase": "computed", "type": "string", "compute_function": "get_time_context.current_date", "default": ""},
  "memory_notes": {"resolve_phase": "runtime", "type": "string", "default": ""},
  "soul_notes":  {"resolve_phase": "runtime", "type": "string", "default": ""},
  "elapsed":     {"resolve_phase": "runtime", "type": "string", "default": "a while"}
}}"#;

fn text(body: &str) -> String {
    json!({"variants": {"default": {"content": body}}}).to_string()
}

fn files() -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        (
            "_meta/prompt_manifest.json".to_owned(),
            MANIFEST.as_bytes().to_vec(),
        ),
        (
            "_meta/placeholder_registry.json".to_owned(),
            REGISTRY.as_bytes().to_vec(),
        ),
    ];
    let texts = [
        (
            "identity",
            "You are {{char_name}}, {{char_age}} years old, {{char_height}} m tall (shy: {{char_shy}}).",
        ),
        (
            "voice",
            "Speak warmly to {{user_name}}, who likes {{user_likes}}.",
        ),
        ("beta_hint", "You may try new things."),
        ("off_rule", "This rule is off."),
        (
            "memory",
            "What you remember:\n{{memory_notes}}\n\n\n\n{{soul_notes}}",
        ),
        ("later_note", "You may add a thought after {{elapsed}}."),
        ("recap_system", "Summarize the conversation."),
        ("autofill_core", "Fill in the core traits."),
        ("cortex_rules", "Update the memory files."),
        ("chat_log", "The conversation so far."),
        ("opening", "Hello {{user_name}}, it is {{today}}."),
        ("musing", "Think about what was said."),
        ("title", "Give the chat a title."),
        ("in_character", "(as {{char_name}})"),
        ("recap_start", "Summary:"),
        ("beta_prefill", "(trying something new)"),
    ];
    for (id, body) in texts {
        files.push((format!("{id}.json"), text(body).into_bytes()));
    }
    files.push((
        "consent.json".to_owned(),
        json!({"variants": {"default": {"messages": [
            {"role": "user", "content": "Is this fiction?"},
            {"role": "assistant", "content": "Yes, {{user_name}}."}
        ]}}})
        .to_string()
        .into_bytes(),
    ));
    files.push((
        "examples.json".to_owned(),
        json!({"variants": {"default": {"messages": [{"role": "user", "content": "Hi"}]}}})
            .to_string()
            .into_bytes(),
    ));
    files
}

fn defaults() -> Defaults {
    let files = files();
    let borrowed: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    Defaults::from_files("persona", &borrowed).unwrap_or_else(|e| panic!("{e}"))
}

fn store() -> Store {
    Store::builder(defaults())
        .source(
            "persona_config",
            json!({"persona_settings": {"name": "Mia", "age": 27, "height_m": 1.65, "shy": false}}),
        )
        .source(
            "user_profile",
            json!({"user_name": "Sam", "user_interested_in": ["tea", 3, true, 2.50], "tags": ["a", "b"]}),
        )
        .compute_function("get_time_context.current_date", || "24.01.2026".to_owned())
        .open()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_system_prompt_leaves_out_appends_non_chat_categories_and_unmet_requirements() {
    let store = store();
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "You are Mia, 27 years old, 1.65 m tall (shy: False).\n\n\
         Speak warmly to Sam, who likes tea, 3, True, 2.5."
    );
    // a whitespace-only value does not meet `requires_any`: PromptEngine strips it first
    assert_eq!(
        store
            .build_system_prompt("default", &[("memory_notes", " \n\t\u{a0}")])
            .unwrap(),
        store.build_system_prompt("default", &[]).unwrap()
    );
    let with_memory = store
        .build_system_prompt(
            "default",
            &[
                ("memory_notes", "the cat is called Tom"),
                ("soul_notes", ""),
            ],
        )
        .unwrap();
    assert!(
        with_memory.ends_with("\n\nWhat you remember:\nthe cat is called Tom"),
        "{with_memory}"
    );
}

#[test]
fn a_variant_condition_limits_a_prompt_to_its_variant_everywhere() {
    let store = store();
    let experimental = store.build_system_prompt("experimental", &[]).unwrap();
    assert!(
        experimental.ends_with(".\n\nYou may try new things."),
        "{experimental}"
    );
    assert!(
        !store
            .build_system_prompt("default", &[])
            .unwrap()
            .contains("try new things")
    );
    assert_eq!(
        store.resolve_prompt("beta_hint", "default", &[]).unwrap(),
        ""
    );
    assert_eq!(
        store
            .resolve_prompt("beta_hint", "experimental", &[])
            .unwrap(),
        "You may try new things."
    );
    assert_eq!(store.build_prefill("default", &[]).unwrap(), "(as Mia)");
    assert_eq!(
        store.build_prefill("experimental", &[]).unwrap(),
        "(as Mia)\n\n(trying something new)"
    );
    assert_eq!(store.get_consent_dialog("default").unwrap(), None);
    assert_eq!(
        store.get_consent_dialog("experimental").unwrap(),
        Some(vec![
            Message::user("Is this fiction?").in_section("consent"),
            Message::assistant("Yes, Sam.").in_section("consent"),
        ])
    );
}

#[test]
fn a_category_filter_selects_one_category_even_a_non_chat_one() {
    let store = store();
    for (category, want) in [
        ("summary", "Summarize the conversation."),
        ("spec_autofill", "Fill in the core traits."),
        ("cortex", "Update the memory files."),
        (
            "persona",
            "Speak warmly to Sam, who likes tea, 3, True, 2.5.",
        ),
        ("afterthought", ""),
    ] {
        assert_eq!(
            store
                .build_system_prompt_filtered("default", &[], category)
                .unwrap(),
            want,
            "{category}"
        );
    }
    assert_eq!(
        store
            .build_system_prompt_filtered("default", &[], "")
            .unwrap(),
        store.build_system_prompt("default", &[]).unwrap()
    );
    assert_eq!(
        store
            .build_prefill_filtered("default", &[], "summary")
            .unwrap(),
        "Summary:"
    );
}

#[test]
fn the_append_and_the_first_assistant_message_are_chosen_by_position() {
    let store = store();
    assert_eq!(
        store
            .get_system_prompt_append("default", &[("elapsed", "ten minutes")])
            .unwrap(),
        "You may add a thought after ten minutes."
    );
    // the first-assistant text of every category, `utility` included, by order
    assert_eq!(
        store.get_first_assistant_content("default", &[]).unwrap(),
        "Give the chat a title.\n\nHello Sam, it is 24.01.2026."
    );
}

#[test]
fn a_runtime_value_never_comes_from_the_registry_default() {
    let store = store();
    // PromptEngine leaves `{{elapsed}}` in the text; promptic refuses the render.
    let e = store.get_system_prompt_append("default", &[]).unwrap_err();
    assert!(
        matches!(&e, StoreError::MissingRuntime { keys, prompts }
        if keys == &["elapsed"] && prompts == &["later_note"]),
        "{e}"
    );
    assert!(
        !store
            .get_current_values("default", &[])
            .contains_key("elapsed")
    );
}

#[test]
fn the_chat_sequence_is_a_plan_of_chat_prompts_by_order() {
    let store = store();
    let plan = store.get_chat_message_sequence("default");
    let entry = |id: &str, position: &str, order| SequenceEntry {
        id: id.into(),
        position: position.into(),
        order,
    };
    // `title` (utility) and `musing` (afterthought, user_message) are not chat steps;
    // `recap_start` (summary) is no chat prefill
    assert_eq!(
        plan,
        [
            entry("opening", "first_assistant", 150),
            entry("chat_log", "history", 200),
            entry("in_character", "prefill", 300),
        ]
    );
    let experimental = store.get_chat_message_sequence("experimental");
    assert_eq!(experimental.len(), 4);
    assert_eq!(experimental[3], entry("beta_prefill", "prefill", 300));
    assert_eq!(
        serde_json::to_value(&plan[1]).unwrap(),
        json!({"id": "chat_log", "position": "history", "order": 200})
    );
    let rendered = store
        .render_chat_message_sequence("default", &[("elapsed", "x")])
        .unwrap();
    assert_eq!(rendered[0].role, Role::System);
}

#[test]
fn prompts_are_listed_by_target_and_by_category_in_order() {
    let store = store();
    let ids = |entries: Vec<promptic::store::PromptEntry>| -> Vec<String> {
        entries.into_iter().map(|e| e.id).collect()
    };
    assert_eq!(
        ids(store.get_prompts_by_target(Target::Prefill)),
        ["recap_start", "in_character", "beta_prefill"]
    );
    // disabled prompts are not listed by target, but are by category
    assert!(
        !ids(store.get_prompts_by_target(Target::SystemPrompt)).contains(&"off_rule".to_owned())
    );
    assert_eq!(
        ids(store.get_prompts_by_category("system")),
        ["off_rule", "identity", "beta_hint"]
    );
    let listed = store.get_prompts_by_category("context");
    assert_eq!(
        listed
            .iter()
            .map(|e| e.position.as_deref())
            .collect::<Vec<_>>(),
        [Some("first_assistant"), Some("history"), None]
    );
    assert_eq!(listed[2].requires_any, ["memory_notes", "soul_notes"]);
}

#[test]
fn current_values_show_what_each_placeholder_resolves_to() {
    let store = store();
    let values = store.get_current_values("default", &[("memory_notes", "m"), ("extra", "e")]);
    let get = |k: &str| values.get(k).map(String::as_str);
    assert_eq!(get("char_name"), Some("Mia"));
    assert_eq!(get("char_shy"), Some("False"));
    assert_eq!(get("user_tags"), Some("a / b"));
    assert_eq!(get("today"), Some("24.01.2026"));
    assert_eq!(get("memory_notes"), Some("m"));
    // PromptEngine's preview shows every runtime value it is handed
    assert_eq!(get("extra"), Some("e"));
}

#[test]
fn values_missing_from_a_source_take_the_default_as_python_prints_it() {
    let store = Store::builder(defaults())
        .source(
            "persona_config",
            json!({"persona_settings": {"name": null}}),
        )
        .source("user_profile", json!({}))
        .open()
        .unwrap();
    let values = store.get_current_values("default", &[]);
    let get = |k: &str| values.get(k).map(String::as_str);
    assert_eq!(get("char_name"), Some("Assistant"));
    assert_eq!(get("char_age"), Some("18"));
    assert_eq!(get("char_height"), Some("1.7"));
    assert_eq!(get("char_shy"), Some("True"));
    assert_eq!(get("user_likes"), Some("Not specified"));
    // no default: PromptEngine's `''`
    assert_eq!(get("user_tags"), Some(""));
    // a computed key without its function: the registry default
    assert_eq!(get("today"), Some(""));
}

/// An application gives every source and function it has; a folder whose registry uses
/// fewer still opens, and the names it does not use are listed with the closest it does.
#[test]
fn a_source_or_function_no_placeholder_names_is_listed_with_a_suggestion() {
    let defaults = defaults();
    assert_eq!(defaults.sources(), ["persona_config", "user_profile"]);
    assert_eq!(
        defaults.compute_functions(),
        ["get_time_context.current_date"]
    );
    let store = Store::builder(defaults.clone())
        .source("persona_confg", json!({}))
        .source("chat_history", json!({}))
        .source("user_profile", json!({"user_name": "Sam", "tags": []}))
        .compute_function("get_time_context.current_dat", || "never".to_owned())
        .compute_function("get_time_context.current_date", || "24.01.2026".to_owned())
        .open()
        .unwrap_or_else(|e| panic!("{e}"));
    let unused = store.unused_names();
    assert_eq!(unused.0.len(), 3, "{unused}");
    let text = unused.to_string();
    assert!(
        text.contains(
            "no placeholder of the registry names the source `persona_confg`: it is not used"
        ),
        "{text}"
    );
    assert!(text.contains("did you mean `persona_config`?"), "{text}");
    assert!(
        text.contains("the registry names the sources `persona_config`, `user_profile`"),
        "{text}"
    );
    assert!(
        text.contains("did you mean `get_time_context.current_date`?"),
        "{text}"
    );
    // The names it uses work; the misspelt ones are never called.
    assert_eq!(
        store.get_first_assistant_content("default", &[]).unwrap(),
        "Give the chat a title.\n\nHello Sam, it is 24.01.2026."
    );
    assert_eq!(store.sources(), ["persona_config", "user_profile"]);
    assert_eq!(store.compute_functions(), ["get_time_context.current_date"]);
    assert!(self::store().unused_names().is_empty());
    // Opening all or nothing refuses them.
    let e = Store::builder(defaults)
        .source("persona_confg", json!({}))
        .strict(true)
        .open()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "no placeholder of the registry names the source `persona_confg`; did you mean `persona_config`?"
    );
}

#[test]
fn an_unknown_position_is_refused_with_a_suggestion() {
    let files: &[(&str, &[u8])] = &[
        (
            "_meta/prompt_manifest.json",
            br#"{"prompts": {"a": {"domain": "a", "position": "system_prompt_apend"}}}"#,
        ),
        (
            "_meta/placeholder_registry.json",
            br#"{"placeholders": {}}"#,
        ),
        ("a.json", br#"{"variants": {"default": {"text": "A"}}}"#),
    ];
    let e = Defaults::from_files("p", files).unwrap_err().to_string();
    assert!(
        e.contains("`position` of prompt `a` is `system_prompt_apend`, not a position"),
        "{e}"
    );
    assert!(e.contains("did you mean `system_prompt_append`?"), "{e}");
}

/// A user folder in a fresh temporary directory.
fn user_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pk-assembly-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("_meta")).unwrap();
    std::fs::create_dir_all(dir.join("prompts")).unwrap();
    dir
}

#[test]
fn one_prompt_with_an_unknown_placeholder_is_refused_and_the_rest_serve() {
    let dir = user_folder("broken");
    std::fs::write(
        dir.join("_meta/user_manifest.json"),
        r#"{"prompts": {"in_character": {"domain_file": "prompts/in_character.json"}}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("prompts/in_character.json"),
        r#"{"variants": {"default": {"content": "(as {{char_name}}, feeling {{user_mood}})"}}}"#,
    )
    .unwrap();
    let builder = || {
        Store::builder(defaults())
            .user_dir(&dir)
            .source("persona_config", json!({}))
            .source("user_profile", json!({}))
    };
    let store = builder().open().unwrap();
    let problems = store.problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "in_character");
    let shown = problems[0].1.to_string();
    assert!(
        shown.contains("unknown placeholder `{{user_mood}}`"),
        "{shown}"
    );
    assert!(shown.contains("prompts/in_character.json:1:"), "{shown}");
    // a text of the user layer takes a new key from the user registry
    assert!(
        shown.contains("help: add `user_mood` to `_meta/user_placeholder_registry.json`"),
        "{shown}"
    );
    // the system prompt does not take the prefill: it serves
    assert!(
        store
            .build_system_prompt("default", &[])
            .unwrap()
            .starts_with("You are Assistant")
    );
    // the prefill does, and so does rendering the prompt itself
    for e in [
        store.build_prefill("default", &[]).unwrap_err(),
        store
            .resolve_prompt("in_character", "default", &[])
            .unwrap_err(),
    ] {
        assert!(
            matches!(&e, StoreError::Refused { id, .. } if id == "in_character"),
            "{e}"
        );
        assert!(e.to_string().contains("{{user_mood}}"), "{e}");
    }
    // an edit elsewhere is not held up by it
    store
        .update_prompt("voice", "default", "Be brief.")
        .unwrap();
    let e = store
        .update_prompt("voice", "default", "Be {{zzz_unknown}}.")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "add `zzz_unknown` to `_meta/user_placeholder_registry.json` (`Store::add_placeholder`)"
        ),
        "{e}"
    );
    // all or nothing when asked
    assert!(matches!(
        builder().strict(true).open(),
        Err(StoreError::Invalid(_))
    ));
    // fixing its text brings it back
    store
        .update_prompt("in_character", "default", "(as {{char_name}})")
        .unwrap();
    assert!(store.problems().is_empty());
    assert_eq!(
        store.build_prefill("default", &[]).unwrap(),
        "(as Assistant)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_runtime_value_overrides_a_static_one_in_every_assembly() {
    let store = store();
    let text = store
        .build_system_prompt("default", &[("char_name", "Zed")])
        .unwrap();
    assert!(text.starts_with("You are Zed, 27 years old"), "{text}");
    assert_eq!(
        store
            .build_prefill("default", &[("char_name", "Zed")])
            .unwrap(),
        "(as Zed)"
    );
    // and the fixed values come back for the next render without it
    assert!(
        store
            .build_system_prompt("default", &[])
            .unwrap()
            .starts_with("You are Mia")
    );
}

/// Writes `files` under a fresh temporary folder.
fn folder_of(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pk-folder-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn a_folder_opened_in_place_shows_what_promptengine_shows() {
    // As PersonaUI leaves its folder: the active files edited in place (a new text, a prompt
    // turned off, a new order), `_defaults/` untouched, an empty user manifest.
    let manifest = |rules_order: u32, note_on: bool| {
        format!(
            r#"{{"prompts": {{
  "rules": {{"domain_file": "rules.json", "order": {rules_order}, "category": "system"}},
  "note": {{"domain_file": "note.json", "order": 200, "enabled": {note_on}, "category": "context"}},
  "style": {{"domain_file": "style.json", "order": 300, "category": "system"}}}}}}"#
        )
    };
    let registry = r#"{"placeholders": {"char_name": {"resolve_phase": "static", "source": "persona_config", "source_path": "persona_settings.name", "default": "Assistant"}}}"#;
    let defaults_manifest = manifest(100, true);
    let active_manifest = manifest(400, false);
    let dir = folder_of(
        "in-place",
        &[
            ("_defaults/_meta/prompt_manifest.json", &defaults_manifest),
            ("_defaults/_meta/placeholder_registry.json", registry),
            (
                "_defaults/rules.json",
                r#"{"rules": {"variants": {"default": {"content": "Stock rules for {{char_name}}."}}}}"#,
            ),
            (
                "_defaults/note.json",
                r#"{"note": {"variants": {"default": {"content": "A note."}}}}"#,
            ),
            (
                "_defaults/style.json",
                r#"{"style": {"variants": {"default": {"content": "Stock style."}}}}"#,
            ),
            ("_meta/prompt_manifest.json", &active_manifest),
            (
                "_meta/user_manifest.json",
                r#"{"version": "2.0", "prompts": {}}"#,
            ),
            ("_meta/placeholder_registry.json", registry),
            (
                "rules.json",
                r#"{"rules": {"variants": {"default": {"content": "Edited rules for {{char_name}}."}}}}"#,
            ),
            (
                "note.json",
                r#"{"note": {"variants": {"default": {"content": "A note."}}}}"#,
            ),
            (
                "style.json",
                r#"{"style": {"variants": {"default": {"content": "Stock style."}}}}"#,
            ),
        ],
    );
    let store = Store::open_folder(&dir).unwrap();
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Stock style.\n\nEdited rules for Assistant."
    );
    let store = Store::folder_builder(&dir)
        .unwrap()
        .source(
            "persona_config",
            json!({"persona_settings": {"name": "Luna"}}),
        )
        .open()
        .unwrap();
    assert_eq!(
        store.resolve_prompt("rules", "default", &[]).unwrap(),
        "Edited rules for Luna."
    );

    // A user manifest entry for an id of the system manifest replaces it whole, as
    // PromptEngine merges them: `style` loses its order (9999) and its category.
    std::fs::write(
        dir.join("_meta/user_manifest.json"),
        r#"{"prompts": {"style": {"domain_file": "style.json"}, "mine": {"domain_file": "mine.json", "order": 10}}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("mine.json"),
        r#"{"mine": {"variants": {"default": {"content": "Mine."}}}}"#,
    )
    .unwrap();
    store.reload().unwrap();
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Mine.\n\nEdited rules for Luna.\n\nStock style."
    );
    let style = &store.get_prompts_by_target(Target::SystemPrompt)[2];
    assert_eq!(
        (style.id.as_str(), style.order, style.category.as_deref()),
        ("style", 9999, None)
    );

    // edits are written where PromptEngine keeps them, in its form
    store
        .update_prompt("rules", "default", "New rules, {{char_name}}.")
        .unwrap();
    store.set_enabled("note", "default", true).unwrap();
    store.reorder_prompts(&["rules"]).unwrap();
    store.create_prompt("extra", "An extra rule.").unwrap();
    let read = |rel: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(rel)).unwrap()).unwrap()
    };
    assert_eq!(
        read("rules.json")["rules"]["variants"]["default"]["content"],
        "New rules, {{char_name}}."
    );
    let system = read("_meta/prompt_manifest.json");
    assert_eq!(system["prompts"]["note"]["enabled"], true);
    assert_eq!(system["prompts"]["rules"]["order"], 10);
    // `style` is the user manifest's: its order goes there, and its entry stays whole
    let user = read("_meta/user_manifest.json");
    assert_eq!(
        user["prompts"]["style"],
        json!({"domain_file": "style.json", "order": 40})
    );
    assert_eq!(
        user["prompts"]["extra"],
        json!({"name": "extra", "description": "", "category": "custom", "type": "text",
               "target": "system_prompt", "position": "system_prompt", "order": 50,
               "enabled": true, "domain_file": "extra.json"})
    );
    assert_eq!(
        read("extra.json"),
        json!({"extra": {"variants": {"default": {"content": "An extra rule."}}}})
    );
    // a fresh open reads the same
    let again = Store::folder_builder(&dir)
        .unwrap()
        .source(
            "persona_config",
            json!({"persona_settings": {"name": "Luna"}}),
        )
        .open()
        .unwrap();
    assert_eq!(
        again.build_system_prompt("default", &[]).unwrap(),
        store.build_system_prompt("default", &[]).unwrap()
    );
    // a placeholder of the user's goes to the folder's user registry, where PromptEngine
    // keeps its own
    store.add_placeholder("nick", "Lu").unwrap();
    assert_eq!(
        read("_meta/user_placeholder_registry.json")["placeholders"]["nick"]["default"],
        "Lu"
    );
    store
        .update_prompt("style", "default", "Call them {{nick}}.")
        .unwrap();
    assert!(store.remove_placeholder("nick").is_err());
    store
        .update_prompt("style", "default", "Stock style.")
        .unwrap();
    store.remove_placeholder("nick").unwrap();
    // a reset takes the prompt's text and entry from `_defaults/`, as PromptEngine
    store.reset_prompt_to_default("rules").unwrap();
    assert_eq!(
        read("rules.json")["rules"]["variants"]["default"]["content"],
        "Stock rules for {{char_name}}."
    );
    assert_eq!(
        read("_meta/prompt_manifest.json")["prompts"]["rules"],
        json!({"domain_file": "rules.json", "order": 100, "category": "system"})
    );
    assert_eq!(
        store.resolve_prompt("rules", "default", &[]).unwrap(),
        "Stock rules for Luna."
    );
    assert!(matches!(
        store.reset_prompt_to_default("extra"),
        Err(StoreError::NoDefault { .. })
    ));
    // deleting: only a prompt of the user manifest, as PromptEngine; its file goes with it
    assert!(matches!(
        store.delete_prompt("rules"),
        Err(StoreError::NotUserPrompt { .. })
    ));
    store.delete_prompt("extra").unwrap();
    assert!(!dir.join("extra.json").exists());
    assert!(
        read("_meta/user_manifest.json")["prompts"]
            .get("extra")
            .is_none()
    );
    assert!(store.get_all_prompts().iter().all(|p| p.id != "extra"));
    // a factory reset copies `_defaults/` back, as PromptEngine's full reset
    store.factory_reset().unwrap();
    assert_eq!(
        std::fs::read(dir.join("_meta/prompt_manifest.json")).unwrap(),
        std::fs::read(dir.join("_defaults/_meta/prompt_manifest.json")).unwrap()
    );
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "Stock rules for Luna.\n\nA note.\n\nStock style."
    );

    // a prompt with an unknown placeholder is refused alone, or the folder with strict
    std::fs::write(
        dir.join("note.json"),
        r#"{"note": {"variants": {"default": {"content": "{{char_nam}}"}}}}"#,
    )
    .unwrap();
    let store = Store::open_folder(&dir).unwrap();
    assert_eq!(store.problems().len(), 1);
    assert!(store.get_prompts_by_category("context")[0].id == "note");
    assert!(matches!(
        Store::folder_builder(&dir).unwrap().strict(true).open(),
        Err(StoreError::Invalid(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The preview leaves a value it does not have as `{{key}}` where PromptEngine leaves it,
/// and is the strict render whenever every value is there.
#[test]
fn the_preview_shows_missing_runtime_values_as_their_keys() {
    let store = store();
    let preview = store.preview();
    // A runtime key takes no registry default: the strict render refuses, the preview shows it.
    assert!(matches!(
        store.resolve_prompt("later_note", "default", &[]),
        Err(StoreError::MissingRuntime { .. })
    ));
    assert_eq!(
        preview
            .resolve_prompt("later_note", "default", &[])
            .unwrap(),
        "You may add a thought after {{elapsed}}."
    );
    assert_eq!(
        preview.get_system_prompt_append("default", &[]).unwrap(),
        "You may add a thought after {{elapsed}}."
    );
    // Static and computed values still fill in; runs of newlines collapse around a key.
    assert_eq!(
        preview
            .resolve_prompt("memory", "default", &[("memory_notes", "likes tea")])
            .unwrap(),
        "What you remember:\nlikes tea\n\n{{soul_notes}}"
    );
    assert_eq!(
        preview.get_first_assistant_content("default", &[]).unwrap(),
        "Give the chat a title.\n\nHello Sam, it is 24.01.2026."
    );
    // `requires_any` still decides from the values given.
    let system = preview
        .build_system_prompt("default", &[("memory_notes", "likes tea")])
        .unwrap();
    assert!(
        system.ends_with("What you remember:\nlikes tea\n\n{{soul_notes}}"),
        "{system}"
    );
    assert!(
        !preview
            .build_system_prompt("default", &[])
            .unwrap()
            .contains("remember")
    );
    // With every value, the preview is the strict render.
    let full = [
        ("memory_notes", "likes tea"),
        ("soul_notes", "calm"),
        ("elapsed", "an hour"),
    ];
    for variant in ["default", "experimental"] {
        assert_eq!(
            preview.build_system_prompt(variant, &full).unwrap(),
            store.build_system_prompt(variant, &full).unwrap()
        );
        assert_eq!(
            preview.get_system_prompt_append(variant, &full).unwrap(),
            store.get_system_prompt_append(variant, &full).unwrap()
        );
        assert_eq!(
            preview.build_prefill(variant, &full).unwrap(),
            store.build_prefill(variant, &full).unwrap()
        );
        assert_eq!(
            preview
                .render_chat_message_sequence(variant, &full)
                .unwrap(),
            store.render_chat_message_sequence(variant, &full).unwrap()
        );
        assert_eq!(
            preview.get_dialog_injections(variant, &full).unwrap(),
            store.get_dialog_injections(variant, &full).unwrap()
        );
    }
    // What the strict render refuses for other reasons, the preview refuses too.
    assert!(matches!(
        preview.resolve_prompt("no_such", "default", &[]),
        Err(StoreError::UnknownPrompt { .. })
    ));
}
