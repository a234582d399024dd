//! Prompt families: one job (summarize), several prompts, the one for each document chosen
//! by its tags — at compile time for `prompts/summarize/`, at run time for keep's docs.
//!
//! Run it with `cargo run --example families`.

use promptic::family::Family;
use promptic::{Identity, Tags, check_identity};

/// `prompts/summarize/*.md`: every member is checked against these fields at compile
/// time, and the generated `select` chooses among them by their `"match"` rules.
#[derive(promptic::Prompt)]
#[prompt(family = "summarize")]
struct Summarize<'a> {
    text: &'a str,
    /// Used by `summarize/myapp_meetings` only, inside `{% if sprint %}`.
    sprint: Option<&'a str>,
}

const JOURNAL: &str = include_str!("journal.json");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let identity = Identity::from_json(JOURNAL)?;
    check_identity(&identity, &[Summarize::IDENTITY_KEYS])?;

    println!("members of prompts/summarize/:");
    for member in Summarize::MEMBERS {
        println!("  {:<26} {}", member.name, member.to_rules());
    }

    // Two documents with different tags: each gets its own member.
    let documents = [
        (
            "Standup: Sam ships the export fix by Friday; Lee reviews it.",
            Some("14"),
            [("type", "standup"), ("project", "myapp")],
        ),
        (
            "Alex: are we still on for lunch Thursday? Jordan: yes, noon at the usual place.",
            None,
            [("type", "conversation"), ("source", "chat")],
        ),
    ];
    for (text, sprint, pairs) in documents {
        let tags: Tags = pairs.into_iter().collect();
        let out = Summarize { text, sprint }.render(&tags, &identity);
        println!("\n=== {tags} -> {}", Summarize::select(&tags));
        println!(
            "[{}, {}]",
            out.path,
            out.metadata.title.as_deref().unwrap_or_default()
        );
        println!("{}", out.text);
    }

    // keep's own documents, read at run time with the same rules. keep has no default
    // here, so a document about something else matches nothing: keep's error.
    let keep = Family::from_keep_docs([
        (
            ".prompt/analyze/conversation",
            "type=conversation\n\n## Prompt\n\nExtract every fact stated in this conversation.",
        ),
        (
            ".prompt/analyze/paper",
            "type=paper\n\n## Prompt\n\nDecompose this paper along its actual sections.\n### Output\nOne bullet per section.",
        ),
    ]);
    let paper: Tags = [("type", "paper")].into_iter().collect();
    let member = keep.require(&paper)?;
    println!("\n=== keep: {paper} -> {}\n{}", member.id, member.prompt);
    let other: Tags = [("type", "meeting")].into_iter().collect();
    if let Err(e) = keep.require(&other) {
        println!("\n=== keep: {other} -> error: {e}");
    }
    Ok(())
}
