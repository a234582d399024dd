//! Each kind of broken folder, refused with a located diagnostic.

use super::Defaults;

const REGISTRY: &str = r#"{"placeholders": {"char_name": {"type": "static"}, "mood": {"resolve_phase": "runtime", "type": "string"}}}"#;

fn problems(manifest: &str, registry: &str, domains: &[(&str, &str)]) -> String {
    let mut files: Vec<(&str, &[u8])> = vec![
        ("_meta/prompt_manifest.json", manifest.as_bytes()),
        ("_meta/placeholder_registry.json", registry.as_bytes()),
    ];
    files.extend(domains.iter().map(|(p, t)| (*p, t.as_bytes())));
    match Defaults::from_files("s", &files) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

fn one(domain: &str) -> String {
    problems(
        r#"{"prompts": {"a": {"domain": "a"}}}"#,
        REGISTRY,
        &[("a.json", domain)],
    )
}

#[test]
fn unknown_placeholder_is_located_inside_the_string_past_escapes() {
    let text = one(r#"{"variants": {"default": {"text": "\"Hi\"\n\u00e9 {{char_nam}}"}}}"#);
    assert!(
        text.contains("unknown placeholder `{{char_nam}}` in variant `default` of prompt `a`"),
        "{text}"
    );
    assert!(text.contains("--> s/a.json:1:51"), "{text}");
    assert!(
        text.contains(&format!("\n  | {}^^^^^^^^^^^^\n", " ".repeat(50))),
        "{text}"
    );
    assert!(text.contains("did you mean `{{char_name}}`?"), "{text}");
    // One error however often the text writes it, noting the other places.
    let text = one(r#"{"variants": {"default": {"text": "{{char_nam}}, {{char_nam}}"}}}"#);
    assert_eq!(text.matches("unknown placeholder").count(), 1, "{text}");
    assert!(
        text.contains("= note: also written at s/a.json:1:50"),
        "{text}"
    );
    // not placeholders by PromptEngine's rule: text
    assert!(
        Defaults::from_files(
            "s",
            &[
                (
                    "_meta/prompt_manifest.json",
                    br#"{"prompts": {"a": {"domain": "a"}}}"#
                ),
                ("_meta/placeholder_registry.json", REGISTRY.as_bytes()),
                (
                    "a.json",
                    br#"{"variants": {"default": {"text": "{{ nope }} {{no pe}} {{1}} {{nope"}}}"#
                ),
            ]
        )
        .is_ok()
    );
}

#[test]
fn malformed_json_points_at_the_error() {
    let text = one("{\"variants\": {\"default\": {\"text\": \"x\"}},\n}");
    assert!(
        text.contains("`s/a.json` is not valid JSON: trailing comma"),
        "{text}"
    );
    assert!(text.contains("--> s/a.json:2:1"), "{text}");
}

#[test]
fn missing_and_wrong_domains() {
    let text = problems(r#"{"prompts": {"a": {"domain": "gone"}}}"#, REGISTRY, &[]);
    assert!(text.contains("domain file `s/gone.json` of prompt `a` does not exist\n --> s/_meta/prompt_manifest.json:1:30"), "{text}");
    let text = problems(
        r#"{"prompts": {"a": {"domain_file": "../a.json"}}}"#,
        REGISTRY,
        &[],
    );
    assert!(text.contains("is outside the folder"), "{text}");
    let text = problems(
        r#"{"prompts": {"ab": {"domain_file": "d.json"}}}"#,
        REGISTRY,
        &[("d.json", r#"{"abc": {"variants": {}}}"#)],
    );
    assert!(
        text.contains("`s/d.json` does not hold prompt `ab`")
            && text.contains("did you mean `abc`?"),
        "{text}"
    );
    let text = one(r#"{"id": "b", "variants": {}}"#);
    assert!(
        text.contains("`s/a.json` is for prompt `b`, not `a`"),
        "{text}"
    );
    assert!(text.contains("prompt `a` has no variants"), "{text}");
}

#[test]
fn manifest_fields_are_well_formed() {
    let manifest = r#"{"prompts": {"a": {
        "domain": "a", "category": "core rules", "order": 1.5, "type": "txt",
        "target": "system", "enabled": "yes", "requires_any": ["moood"],
        "variants": {"bad name": {"enabled": true}, "other": {"enabled": true}},
        "requires_anny": []
    }}}"#;
    let text = problems(
        manifest,
        REGISTRY,
        &[("a.json", r#"{"variants": {"only": {"text": "x"}}}"#)],
    );
    for expected in [
        "category `core rules` of prompt `a` is not a category name",
        "`order` of prompt `a` must be a whole number, found a number",
        "`type` of prompt `a` is `txt`, not `text` or `multi_turn`",
        "`target` of prompt `a` is `system`, not a target",
        "`enabled` of prompt `a` must be `true` or `false`, found a string",
        "`requires_any` names `moood`, which is not in the placeholder registry",
        "did you mean `mood`?",
        "variant name `bad name` of prompt `a` is not a variant name",
        "variant `other` of prompt `a` is not in `s/a.json`, which has no `default` variant to fall back on",
        "unknown field `requires_anny` in prompt `a`",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // every problem at once, each located
    assert_eq!(text.matches("\nerror: ").count() + 1, 9, "{text}");
    assert_eq!(
        text.matches(" --> s/_meta/prompt_manifest.json:").count(),
        9,
        "{text}"
    );
}

#[test]
fn registry_phases_are_well_formed() {
    let registry = r#"{"placeholders": {
        "a": {"type": "statik"}, "b": {"resolve_phase": "runtime", "type": "strin"},
        "c": {"description": "no phase"}, "d e": {"type": "static"}, "f": {"type": "static", "default": [1]}
    }}"#;
    let text = problems(r#"{"prompts": {}}"#, registry, &[]);
    for expected in [
        "placeholder `a` has phase `statik`, which is not a phase",
        "did you mean `static`?",
        "`type` of placeholder `b` is `strin`, not a data type",
        "placeholder `c` has no phase",
        "placeholder `d e` is not a placeholder name",
        "`default` of placeholder `f` must be a string, number or boolean",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn multi_turn_needs_messages_with_roles() {
    let manifest = r#"{"prompts": {"a": {"domain": "a", "type": "multi_turn"}}}"#;
    let text = problems(
        manifest,
        REGISTRY,
        &[(
            "a.json",
            r#"{"variants": {"default": {"text": "x"}, "two": {"messages": [{"role": "bot", "content": "{{mod}}"}]}}}"#,
        )],
    );
    assert!(
        text.contains("variant `default` of prompt `a` has no `messages`"),
        "{text}"
    );
    assert!(text.contains("`bot` is not a role"), "{text}");
    assert!(text.contains("unknown placeholder `{{mod}}`"), "{text}");
    let text = one(r#"{"variants": {"default": {"messages": []}}}"#);
    assert!(
        text.contains("variant `default` of prompt `a` has no `text`"),
        "{text}"
    );
}

#[test]
fn required_files_are_named() {
    let e = Defaults::from_files("s", &[]).unwrap_err().to_string();
    assert!(
        e.contains("`s/_meta/prompt_manifest.json` does not exist"),
        "{e}"
    );
    assert!(
        e.contains("`s/_meta/placeholder_registry.json` does not exist"),
        "{e}"
    );
}

/// A registry of N keys is read in time in proportion to N: replacing an earlier key of
/// the same name by scanning all the keys read so far would make it quadratic (40,000
/// keys: 3 s).
#[test]
fn a_large_registry_is_read_in_linear_time() {
    fn files(n: usize) -> Vec<(&'static str, Vec<u8>)> {
        let mut registry = String::from(r#"{"placeholders": {"#);
        for i in 0..n {
            if i > 0 {
                registry.push_str(", ");
            }
            registry.push_str(&format!(r#""key_{i}": {{"resolve_phase": "static"}}"#));
        }
        registry.push_str("}}");
        vec![
            (
                "_meta/prompt_manifest.json",
                br#"{"prompts": {"a": {"domain": "a"}}}"#.to_vec(),
            ),
            ("_meta/placeholder_registry.json", registry.into_bytes()),
            (
                "a.json",
                br#"{"variants": {"default": {"text": "{{key_0}}"}}}"#.to_vec(),
            ),
        ]
    }
    let open = |files: &[(&str, Vec<u8>)]| {
        let files: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (*p, &b[..])).collect();
        Defaults::from_files("s", &files).expect("the store opens");
    };
    let (small, large) = (files(1_000), files(10_000));
    crate::scaling::assert_linear("the keys", || open(&small), || open(&large));
}

/// A manifest's variant flags are read in time in proportion to them, not by a scan of
/// all the prompt's flags to replace an earlier flag of the same name, nor by a scan of
/// the domain file's variants to check each one.
#[test]
fn many_variant_flags_are_read_in_linear_time() {
    fn files(n: usize) -> Vec<(&'static str, Vec<u8>)> {
        let flags: Vec<String> = (0..n)
            .map(|i| format!(r#""v{i}": {{"enabled": {}}}"#, i % 3 == 0))
            .collect();
        let manifest = format!(
            r#"{{"prompts": {{"a": {{"domain": "a", "variants": {{{}}}}}}}}}"#,
            flags.join(", ")
        );
        vec![
            ("_meta/prompt_manifest.json", manifest.into_bytes()),
            (
                "_meta/placeholder_registry.json",
                br#"{"placeholders": {}}"#.to_vec(),
            ),
            (
                "a.json",
                br#"{"variants": {"default": {"text": "A"}}}"#.to_vec(),
            ),
        ]
    }
    let open = |files: &[(&str, Vec<u8>)]| {
        let files: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (*p, &b[..])).collect();
        Defaults::from_files("s", &files).expect("the store opens");
    };
    let (small, large) = (files(1_000), files(10_000));
    crate::scaling::assert_linear("the flags", || open(&small), || open(&large));
}

#[test]
fn a_repeated_variant_flag_keeps_the_last_in_the_place_of_the_last() {
    let items = vec![("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)];
    let mut one_by_one: Vec<(&str, i32)> = Vec::new();
    for item in &items {
        one_by_one.retain(|(n, _)| *n != item.0);
        one_by_one.push(*item);
    }
    assert_eq!(super::check::last_of_each(items, |(n, _)| n), one_by_one);
    assert_eq!(one_by_one, [("a", 3), ("c", 4), ("b", 5)]);
}

/// A key written twice in one object is read as Python's `json.load` reads it for
/// PromptEngine: in its first place, with its last value (a variant, a prompt of the
/// manifest, a placeholder of the registry).
#[test]
fn a_key_written_twice_keeps_its_first_place_and_its_last_value() {
    let files: &[(&str, &[u8])] = &[
        (
            "_meta/prompt_manifest.json",
            br#"{"prompts": {"a": {"domain": "one"}, "b": {"domain": "three"}, "a": {"domain": "two"}}}"#,
        ),
        (
            "_meta/placeholder_registry.json",
            br#"{"placeholders": {"k": {"default": "x", "resolve_phase": "static"}, "k": {"default": "y", "resolve_phase": "static"}}}"#,
        ),
        ("one.json", br#"{"variants": {"default": {"text": "one"}}}"#),
        ("three.json", br#"{"variants": {"default": {"text": "three"}}}"#),
        (
            "two.json",
            br#"{"variants": {"default": {"text": "first {{k}}"}, "default": {"text": "last {{k}}"}}}"#,
        ),
    ];
    let defaults = Defaults::from_files("s", files).expect("the store opens");
    let ids: Vec<&str> = defaults.prompts().map(|p| p.id()).collect();
    assert_eq!(ids, ["a", "b"]);
    let opening = super::reader::Opening::new(defaults);
    let store = super::reader::open(opening, &super::reader::READ_ONLY)
        .unwrap()
        .reader;
    assert_eq!(store.resolve_prompt("a", "default", &[]).unwrap(), "last y");
}
