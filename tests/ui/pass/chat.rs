// A chat prompt: the derive implements `ChatPrompt` and an inherent `messages`.
use promptic::{ChatPrompt, Identity, Message, Prompt, Role};

#[derive(Prompt)]
#[prompt("chat")]
struct Chat<'a> {
    day: &'a str,
    note: Option<&'a str>,
    turns: Vec<Message>,
    question: &'a str,
}

fn main() {
    inline();
    let identity = Identity::from_json(r#"{"preferred": "sam"}"#).unwrap();
    let prompt = Chat {
        day: "Friday",
        note: None,
        turns: vec![
            Message::user("one"),
            Message::assistant("two"),
            Message::user("three"),
        ],
        question: "What now?",
    };
    let chat = prompt.messages(&identity);
    let shown: Vec<(Role, &str, &str)> = chat
        .messages
        .iter()
        .map(|m| (m.role, &*m.section, m.content.as_text().unwrap_or_default()))
        .collect();
    assert_eq!(
        shown,
        [
            (Role::System, "system_prompt", "You help sam."),
            (Role::System, "context", "Today is Friday."),
            (Role::Assistant, "turns", "two"),
            (Role::User, "turns", "three"),
            (Role::User, "question", "What now?"),
        ]
    );
    assert_eq!(chat.path, "prompts/chat.md");
    let names: Vec<&str> = <Chat as ChatPrompt>::SECTIONS.iter().map(|s| s.name).collect();
    assert_eq!(names, ["system_prompt", "context", "turns", "question"]);
    assert_eq!(<Chat as ChatPrompt>::SECTIONS[2].limit, Some(2));
    let with_note = Chat {
        note: Some("call Ana"),
        ..prompt
    }
    .messages(&identity);
    assert_eq!(with_note.messages[1].content, "Today is Friday.\nNote: call Ana");
}

// `prompt!` on a chat prompt gives the same messages.
#[allow(dead_code)]
fn inline() {
    let identity = Identity::default();
    let turns = [Message::user("hi")];
    let day = "Friday";
    let note: Option<&str> = None;
    let chat = promptic::prompt!("chat", day, note, turns = &turns[..], question = "Q?")
        .messages(&identity);
    assert_eq!(chat.messages.last().and_then(|m| m.content.as_text()), Some("Q?"));
}
