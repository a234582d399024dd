//! The compiled `render` and the run-time renderer (used by the CLI and for prompts that
//! arrive at run time) give byte-identical text for the same prompt and values.

use promptic::load::Project;
use promptic::{Identity, Prompt, PromptContent};
use std::collections::HashMap;
use std::path::Path;

#[derive(Prompt)]
#[prompt("segment_synthesis")]
struct SegmentSynthesis<'a> {
    day: &'a str,
    segment_start: &'a str,
    segment_end: &'a str,
    note: Option<&'a str>,
}

#[derive(Prompt)]
#[prompt("daily_summary")]
struct DailySummary<'a> {
    day: &'a str,
    #[prompt(rename = "day_YYYYMMDD")]
    day_yyyymmdd: &'a str,
    facet: Option<String>,
}

#[derive(Prompt)]
#[prompt("agents/journal_assistant")]
struct JournalAssistant<'a> {
    now: &'a str,
    verbose: bool,
}

#[derive(Prompt)]
#[prompt("weekly_review")]
struct WeeklyReview<'a> {
    day: &'a str,
    week_start: &'a str,
    week_end: &'a str,
    highlights: &'a str,
    open_loops: &'a str,
    mood_trend: &'a str,
    focus_hours: f64,
}

fn runtime(name: &str, values: &[(&str, &str)], identity: &Identity) -> PromptContent {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let prompt = project.check_inferred(name).unwrap();
    let context: HashMap<String, String> = values
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    prompt.render(&context, identity).unwrap()
}

fn identity() -> Identity {
    Identity::from_json(include_str!("../prompts/promptic.json")).unwrap()
}

#[test]
fn segment_synthesis_with_and_without_the_optional() {
    let id = identity();
    for note in [Some("ran long; $day stays as typed"), None] {
        let compiled = SegmentSynthesis {
            day: "Friday",
            segment_start: "2:30 PM",
            segment_end: "2:35 PM",
            note,
        }
        .render(&id);
        let mut values = vec![
            ("day", "Friday"),
            ("segment_start", "2:30 PM"),
            ("segment_end", "2:35 PM"),
        ];
        if let Some(n) = note {
            values.push(("note", n));
        }
        let run_time = runtime("segment_synthesis", &values, &id);
        assert_eq!(compiled, run_time);
    }
}

#[test]
fn daily_summary_both_branches() {
    let id = identity();
    for facet in [Some("work"), None] {
        let compiled = DailySummary {
            day: "Friday",
            day_yyyymmdd: "20260124",
            facet: facet.map(str::to_owned),
        }
        .render(&id);
        let mut values = vec![("day", "Friday"), ("day_YYYYMMDD", "20260124")];
        if let Some(f) = facet {
            values.push(("facet", f));
        }
        assert_eq!(compiled, runtime("daily_summary", &values, &id));
    }
}

#[test]
fn journal_assistant_flag() {
    let id = identity();
    let compiled = JournalAssistant {
        now: "6 PM",
        verbose: true,
    }
    .render(&id);
    assert_eq!(
        compiled,
        runtime(
            "agents/journal_assistant",
            &[("now", "6 PM"), ("verbose", "yes")],
            &id
        )
    );
    let compiled = JournalAssistant {
        now: "6 PM",
        verbose: false,
    }
    .render(&id);
    assert_eq!(
        compiled.text,
        runtime("agents/journal_assistant", &[("now", "6 PM")], &id).text
    );
}

#[test]
fn weekly_review_with_a_display_value() {
    let id = identity();
    let compiled = WeeklyReview {
        day: "Sunday",
        week_start: "Jan 18",
        week_end: "Jan 24",
        highlights: "- shipped the onboarding flow",
        open_loops: "- reply to Sam",
        mood_trend: "steady, dip on Wednesday",
        focus_hours: 21.5,
    }
    .render(&id);
    let values = [
        ("day", "Sunday"),
        ("week_start", "Jan 18"),
        ("week_end", "Jan 24"),
        ("highlights", "- shipped the onboarding flow"),
        ("open_loops", "- reply to Sam"),
        ("mood_trend", "steady, dip on Wednesday"),
        ("focus_hours", "21.5"),
    ];
    assert_eq!(compiled, runtime("weekly_review", &values, &id));
    assert_eq!(*compiled.metadata, WeeklyReview::META);
    assert!(promptic::check_identity(&id, &[WeeklyReview::IDENTITY_KEYS]).is_ok());
}

#[test]
fn the_compiled_version_is_the_run_time_version() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let checked = project.check_inferred("weekly_review").unwrap();
    let at_run_time = promptic::check::version(&checked, &project.templates);
    assert_eq!(<WeeklyReview as Prompt>::VERSION, at_run_time);
    assert_eq!(at_run_time.len(), 16);
    assert_ne!(
        <WeeklyReview as Prompt>::VERSION,
        <SegmentSynthesis as Prompt>::VERSION
    );
}
