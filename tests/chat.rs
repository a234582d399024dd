//! Chat prompts: the derive and the run-time renderer give the same messages, sections
//! that render nothing are left out, and a history keeps the last `limit` messages.

use promptic::load::Project;
use promptic::{Identity, Message, Role};
use std::collections::HashMap;
use std::path::Path;

#[derive(promptic::Prompt)]
#[prompt("journal_chat")]
struct JournalChat<'a> {
    day: &'a str,
    note: Option<&'a str>,
    turns: &'a [Message],
    question: &'a str,
}

fn turns(n: usize) -> Vec<Message> {
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(format!("question {i}"))
            } else {
                Message::assistant(format!("answer {i}"))
            }
        })
        .collect()
}

#[test]
fn derive_and_run_time_agree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let checked = project.check_inferred("journal_chat").unwrap();
    let identity = Identity::from_pairs([("preferred", "Jordan")]);
    for (note, count) in [(None, 0), (Some("call Ana"), 3), (None, 9)] {
        let history = turns(count);
        let compiled = JournalChat {
            day: "Friday",
            note,
            turns: &history,
            question: "What now?",
        }
        .messages(&identity);
        let mut context = HashMap::from([
            ("day".to_owned(), "Friday".to_owned()),
            ("question".to_owned(), "What now?".to_owned()),
        ]);
        if let Some(note) = note {
            context.insert("note".to_owned(), note.to_owned());
        }
        let run_time = checked.messages(&context, &history, &identity).unwrap();
        assert_eq!(compiled.messages, run_time.messages);
        let sections: Vec<(&str, Role)> = compiled
            .messages
            .iter()
            .map(|m| (&*m.section, m.role))
            .collect();
        assert_eq!(sections.first(), Some(&("system_prompt", Role::System)));
        assert_eq!(sections.last(), Some(&("question", Role::User)));
        // `limit=4`: the last four turns at most, each tagged with the section.
        let kept: Vec<&Message> = compiled
            .messages
            .iter()
            .filter(|m| m.section == "turns")
            .collect();
        assert_eq!(kept.len(), count.min(4));
        if count > 4 {
            assert_eq!(kept[0].content, history[count - 4].content);
            assert_eq!(kept.last().unwrap().content, history[count - 1].content);
        }
        // The context section always renders (the day); the note only when given.
        let context_text = compiled.messages[1].text();
        assert_eq!(context_text.contains("call Ana"), note.is_some());
        // JSON as a chat API takes it.
        let json = serde_json::to_value(&compiled.messages).unwrap();
        assert_eq!(json[0]["role"], "system");
        assert!(json[0].get("section").is_none());
    }
}

#[test]
fn a_section_that_renders_nothing_is_left_out() {
    let dir = std::env::temp_dir().join(format!("promptic-chat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("p.md"),
        "{% system rules %}\nBe brief.\n{% user aside %}\n{% if note %}\n$note\n{% endif %}\n{% user question %}\n$q",
    )
    .unwrap();
    let project = Project::open(&dir, "prompts").unwrap();
    let checked = project.check_inferred("p").unwrap();
    let context = HashMap::from([("q".to_owned(), "Why?".to_owned())]);
    let chat = checked
        .messages(&context, &[], &Identity::default())
        .unwrap();
    let names: Vec<&str> = chat.messages.iter().map(|m| &*m.section).collect();
    assert_eq!(names, ["rules", "question"]);
    let _ = std::fs::remove_dir_all(&dir);
}
