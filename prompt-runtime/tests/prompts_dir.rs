//! The workspace's own example prompts (`prompts/`): every one passes the checks, uses
//! exactly the context variables its typed context will declare, and renders as intended.

use prompt_runtime::Identity;
use prompt_runtime::check::{CheckedPrompt, RenderError};
use prompt_runtime::load::Project;
use prompt_runtime::resolve::VarKind;
use std::collections::HashMap;
use std::path::Path;

/// Each prompt and its context variables: name, and whether it is optional.
const EXPECTED: &[(&str, &[(&str, bool)])] = &[
    (
        "activity_review",
        &[
            ("activity_type", false),
            ("activity_description", false),
            ("activity_duration", false),
            ("activity_entities", false),
            ("activity_level", false),
        ],
    ),
    (
        "agents/journal_assistant",
        &[("now", false), ("verbose", true)],
    ),
    (
        "daily_summary",
        &[("day", false), ("day_YYYYMMDD", false), ("facet", true)],
    ),
    (
        "journal_chat",
        &[
            ("day", false),
            ("note", true),
            ("turns", false),
            ("question", false),
        ],
    ),
    ("reply", &[("topic", false), ("length", false)]),
    ("research_answer", &[("guidance", false)]),
    (
        "segment_synthesis",
        &[
            ("day", false),
            ("segment_start", false),
            ("segment_end", false),
            ("note", true),
        ],
    ),
    ("summarize/conversation", &[("text", false)]),
    ("summarize/default", &[("text", false)]),
    ("summarize/meeting", &[("text", false)]),
    (
        "summarize/myapp_meetings",
        &[("sprint", true), ("text", false)],
    ),
    (
        "support_agent",
        &[
            ("guidance", false),
            ("plan", false),
            ("turns", false),
            ("question", false),
        ],
    ),
    (
        "weekly_review",
        &[
            ("day", false),
            ("week_start", false),
            ("week_end", false),
            ("highlights", false),
            ("open_loops", false),
            ("mood_trend", false),
            ("focus_hours", false),
        ],
    ),
];

fn project() -> Project {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prompts");
    match Project::open(&dir, "prompts") {
        Ok(project) => project,
        Err(problems) => panic!("cannot open prompts/:\n{problems}"),
    }
}

fn checked(project: &Project, name: &str) -> CheckedPrompt {
    match project.check_inferred(name) {
        Ok(prompt) => prompt,
        Err(problems) => panic!("prompt `{name}` does not pass the checks:\n{problems}"),
    }
}

fn identity(project: &Project) -> &Identity {
    &project.config.identity
}

fn values(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn every_prompt_passes_the_checks_with_exactly_its_context() {
    let project = project();
    let names = project.prompt_names().unwrap();
    let expected_names: Vec<&str> = EXPECTED.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected_names, "the prompts in prompts/");

    let mut failures = Vec::new();
    for name in &names {
        match project.check_inferred(name) {
            Ok(prompt) => {
                let (_, vars) = EXPECTED.iter().find(|(n, _)| n == name).unwrap();
                let mut found: Vec<(String, bool)> = prompt
                    .schema
                    .context
                    .iter()
                    .map(|v| {
                        assert!(
                            matches!(
                                v.kind,
                                VarKind::Text
                                    | VarKind::Optional
                                    | VarKind::Messages
                                    | VarKind::Choice(_)
                            ),
                            "{name}: `{}` inferred as {:?}",
                            v.name,
                            v.kind
                        );
                        (v.name.clone(), v.kind == VarKind::Optional)
                    })
                    .collect();
                let mut wanted: Vec<(String, bool)> =
                    vars.iter().map(|(n, o)| ((*n).to_owned(), *o)).collect();
                found.sort();
                wanted.sort();
                assert_eq!(found, wanted, "context variables of `{name}`");
                assert!(
                    prompt.resolved.unused.is_empty(),
                    "{name}: unused context variables {:?}",
                    prompt.resolved.unused
                );
            }
            Err(problems) => failures.push(format!("prompt `{name}`:\n{problems}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn templates_exist() {
    let project = project();
    let templates: Vec<&str> = project.templates.names().collect();
    assert_eq!(templates, ["daily_preamble", "segment_preamble"]);
}

#[test]
fn segment_synthesis_renders_with_and_without_the_note() {
    let project = project();
    let prompt = checked(&project, "segment_synthesis");
    let mut context = values(&[
        ("day", "Tuesday, March 3, 2026"),
        ("segment_start", "2:30 PM"),
        ("segment_end", "2:45 PM"),
    ]);

    let without = prompt.render(&context, identity(&project)).unwrap();
    // The template is inlined at the top, its placeholders filled.
    assert!(
        without.text.starts_with(
            "You are looking at a single stretch of time from the journal of Jordan: \
             the segment from 2:30 PM to 2:45 PM on Tuesday, March 3, 2026.\n"
        ),
        "{}",
        without.text
    );
    assert!(!without.text.contains("$segment_preamble"));
    // The block vanished with its lines: the list runs straight into the next heading.
    assert!(
        without.text.contains(
            "- **Notes:** anything typed into the journal while the segment was running.\n\
             \n## What to write\n"
        ),
        "{}",
        without.text
    );
    assert!(!without.text.contains("Note from"));
    assert!(!without.text.contains("{%"));
    assert!(!without.text.contains("\n\n\n"));
    assert_eq!(
        without.metadata.title.as_deref(),
        Some("Segment Activity Synthesis")
    );
    assert_eq!(without.metadata.color.to_string(), "#00bcd4");
    assert_eq!(without.metadata.schedule.as_deref(), Some("segment"));
    assert_eq!(without.metadata.max_output_tokens, Some(2048));
    assert_eq!(without.path, "prompts/segment_synthesis.md");

    context.insert(
        "note".into(),
        "pairing with Sam on the onboarding flow".into(),
    );
    let with = prompt.render(&context, identity(&project)).unwrap();
    assert!(
        with.text.contains(
            "- **Notes:** anything typed into the journal while the segment was running.\n\
             - **Note from Jordan:** \"pairing with Sam on the onboarding flow\". \
             Treat this as the most reliable source for the segment.\n\
             \n## What to write\n"
        ),
        "{}",
        with.text
    );
    assert!(!with.text.contains("{%"));
}

#[test]
fn daily_summary_takes_the_facet_or_the_else_branch() {
    let project = project();
    let prompt = checked(&project, "daily_summary");
    let mut context = values(&[
        ("day", "Tuesday, March 3, 2026"),
        ("day_YYYYMMDD", "20260303"),
    ]);
    let all = prompt.render(&context, identity(&project)).unwrap();
    assert!(all.text.contains("Cover every part of the day"));
    assert!(!all.text.contains("facet"));
    assert!(all.text.contains("saved as `20260303.md`"));
    assert!(all.text.contains("`[[20260303]]`"));
    // daily_preamble: identity variants and the timezone
    assert!(
        all.text
            .contains("All times are local to America/Los_Angeles.")
    );
    assert!(all.text.contains("- Her own words outrank your inferences"));
    assert!(all.text.contains("for herself"));
    assert_eq!(all.metadata.thinking_budget, Some(4096));
    assert_eq!(all.metadata.color.to_string(), "#4caf50");

    context.insert("facet".into(), "work".into());
    let work = prompt.render(&context, identity(&project)).unwrap();
    assert!(work.text.contains("Focus on the **work** facet."));
    assert!(!work.text.contains("Cover every part of the day"));
    assert!(!work.text.contains("\n\n\n"));
}

#[test]
fn journal_assistant_keeps_literal_dollars() {
    let project = project();
    let prompt = checked(&project, "agents/journal_assistant");
    let context = values(&[("now", "Tuesday, March 3, 2026 at 9:15 PM PST")]);
    let out = prompt.render(&context, identity(&project)).unwrap();
    let text = &out.text;
    assert!(text.contains("cd \"$HOME/journal\"\n"), "{text}");
    assert!(text.contains("ls \"days/$(date +%Y%m%d)\"\n"), "{text}");
    assert!(!text.contains("$$"));
    assert!(text.contains("not even one for $5 a month"));
    assert!(text.contains("You are the personal journal assistant of Jordan Lee."));
    assert!(text.contains("Call her Jordan unless she asks for something else."));
    assert!(text.contains("About Jordan, in her own words: product designer"));
    assert!(
        text.contains("It is now Tuesday, March 3, 2026 at 9:15 PM PST (America/Los_Angeles).")
    );
    assert!(text.contains("The journal lives in Jordan's home folder."));
    assert!(!text.contains("Verbose mode"));
    assert!(text.contains("rather than guessing.\n\n## Working with files"));

    let meta = &out.metadata;
    assert_eq!(meta.title.as_deref(), Some("Journal Assistant"));
    assert_eq!(meta.tier, Some(2));
    assert_eq!(meta.tools.as_deref(), Some("journal"));
    assert_eq!(meta.kind.as_deref(), Some("agent"));
    assert_eq!(meta.max_output_tokens, Some(8192));
    assert_eq!(meta.thinking_budget, Some(2048));
    assert_eq!(meta.extra.get("model_hint"), Some("\"fast\""));

    let mut context = context;
    context.insert("verbose".into(), "true".into());
    let verbose = prompt.render(&context, identity(&project)).unwrap();
    assert!(
        verbose
            .text
            .contains("rather than guessing.\n\n## Verbose mode\n\nJordan has asked for detail.")
    );
    assert!(
        verbose
            .text
            .contains("in the answer.\n\n## Working with files")
    );
}

#[test]
fn activity_review_fills_every_field() {
    let project = project();
    let prompt = checked(&project, "activity_review");
    let context = values(&[
        ("activity_type", "coding"),
        ("activity_description", "refactoring the export pipeline"),
        ("activity_duration", "1 h 40 min"),
        ("activity_entities", "Sam, promptic, VS Code"),
        ("activity_level", "high"),
    ]);
    let out = prompt.render(&context, identity(&project)).unwrap();
    assert!(out.text.contains("- **Type:** coding\n"));
    assert!(out.text.contains("- **Engagement level:** high\n"));
    assert!(out.text.contains("A \"high\" level"));
    assert_eq!(out.metadata.priority, Some(3));
    assert_eq!(out.metadata.schedule.as_deref(), Some("activity"));
    assert_eq!(out.metadata.color.to_string(), "#9c27b0");
}

#[test]
fn a_render_lists_every_missing_value() {
    let project = project();
    let prompt = checked(&project, "weekly_review");
    let context = values(&[("day", "Sunday, March 8, 2026"), ("mood_trend", "steady")]);
    let error: RenderError = prompt.render(&context, identity(&project)).unwrap_err();
    let mut missing = error.missing_context.clone();
    missing.sort();
    assert_eq!(
        missing,
        [
            "focus_hours",
            "highlights",
            "open_loops",
            "week_end",
            "week_start"
        ]
    );
    assert!(error.missing_identity.is_empty());
    let message = error.to_string();
    for name in &missing {
        assert!(message.contains(&format!("`{name}`")), "{message}");
    }

    // Identity keys are checked as well: all of them, together with the context.
    let sparse = Identity::from_json(r#"{"name": "Jordan Lee"}"#).unwrap();
    let error = prompt.render(&context, &sparse).unwrap_err();
    assert_eq!(error.missing_context.len(), 5);
    let mut keys = error.missing_identity.clone();
    keys.sort();
    assert_eq!(
        keys,
        [
            "preferred",
            "pronouns_possessive",
            "pronouns_reflexive",
            "timezone"
        ]
    );
}

#[test]
fn weekly_review_is_about_three_kilobytes() {
    let project = project();
    let prompt = checked(&project, "weekly_review");
    let body = prompt.file.body_text().len();
    assert!((2800..=3400).contains(&body), "body is {body} bytes");
    let context = values(&[
        ("day", "Sunday, March 8, 2026"),
        ("week_start", "Monday, March 2"),
        ("week_end", "Sunday, March 8"),
        (
            "highlights",
            "- Shipped the new onboarding flow\n- Long run on Saturday",
        ),
        (
            "open_loops",
            "- Reply to Priya about the pilot\n- Book the dentist",
        ),
        ("mood_trend", "low midweek, better from Thursday"),
        ("focus_hours", "14"),
    ]);
    let out = prompt.render(&context, identity(&project)).unwrap();
    let len = out.text.len();
    assert!(
        (2800..=3600).contains(&len),
        "rendered weekly_review is {len} bytes"
    );
    assert!(!out.text.contains('$'), "{}", out.text);
    assert!(
        out.text
            .starts_with("You are reviewing one full day in the journal of Jordan")
    );
    assert!(
        out.text
            .contains("Treat the mood trend as Jordan's own report")
    );
    assert_eq!(out.metadata.title.as_deref(), Some("Weekly Review"));
    assert_eq!(out.metadata.schedule.as_deref(), Some("weekly"));
}
