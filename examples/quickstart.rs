//! promptic in one file: three prompts from `prompts/`, checked at compile time,
//! rendered with an identity.
//!
//! Run it with `cargo run --example quickstart`. Then misspell a placeholder in
//! `prompts/segment_synthesis.md` (say `$segment_ned`) and run it again: the build stops
//! with the prompt file's line and column and a "did you mean".

use promptic::{Identity, Prompt, PromptContent, check_identity, prompt};

/// `prompts/segment_synthesis.md`: one segment of the day.
#[derive(Prompt)]
#[prompt("segment_synthesis")]
struct SegmentSynthesis<'a> {
    day: &'a str,
    segment_start: &'a str,
    segment_end: &'a str,
    /// Optional: the prompt uses it only inside `{% if note %}`.
    note: Option<&'a str>,
}

/// `prompts/agents/journal_assistant.md`: an agent with typed metadata.
#[derive(Prompt)]
#[prompt("agents/journal_assistant")]
struct JournalAssistant {
    now: String,
    /// A flag: drives `{% if verbose %}`.
    verbose: bool,
}

/// The identity a journal would load from its config at start-up: `examples/journal.json`,
/// which `promptic render --identity` reads too.
const JOURNAL: &str = include_str!("journal.json");

fn show(out: &PromptContent) {
    let title = out.metadata.title.as_deref().unwrap_or("(untitled)");
    println!("=== {title}  [{}, color {}]", out.path, out.metadata.color);
    println!("{}\n", out.text);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let identity = Identity::from_json(JOURNAL)?;
    // Once, at start-up: does this identity have every key the compiled prompts use?
    check_identity(
        &identity,
        &[
            SegmentSynthesis::IDENTITY_KEYS,
            JournalAssistant::IDENTITY_KEYS,
        ],
    )?;

    let segment = SegmentSynthesis {
        day: "Friday, January 24, 2026",
        segment_start: "2:30 PM",
        segment_end: "2:35 PM",
        note: Some("the standup ran long"),
    };
    show(&segment.render(&identity));

    let assistant = JournalAssistant {
        now: "Friday, January 24, 2026 at 6:10 PM PST".to_owned(),
        verbose: false,
    };
    let out = assistant.render(&identity);
    println!(
        "(tier {:?}, tools {:?}, max_output_tokens {:?})",
        out.metadata.tier, out.metadata.tools, out.metadata.max_output_tokens
    );
    show(&out);

    // `prompt!` checks the same way, in expression position; `day` is shorthand for
    // `day = day`.
    let day = "Friday, January 24, 2026";
    let facet: Option<&str> = Some("work");
    let daily = prompt!("daily_summary", day, day_YYYYMMDD = "20260124", facet);
    show(&daily.render(&identity));
    Ok(())
}
