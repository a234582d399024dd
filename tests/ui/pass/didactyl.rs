// A prompt file in didactyl's template format compiles with the derive.
use promptic::{Identity, Message, Prompt, Role};

#[derive(Prompt)]
#[prompt("didactyl")]
struct Didi<'a> {
    subject: &'a str,
    history: &'a [Message],
    question: &'a str,
}

fn main() {
    let identity = Identity::from_json(r#"{"preferred": "sam"}"#).unwrap();
    let history = [Message::user("a"), Message::assistant("b"), Message::user("c")];
    let chat = Didi {
        subject: "Korean",
        history: &history,
        question: "How do I say hello?",
    }
    .messages(&identity);
    let shown: Vec<(Role, &str, &str)> = chat
        .messages
        .iter()
        .map(|m| (m.role, &*m.section, m.content.as_text().unwrap_or_default()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                Role::System,
                "system_prompt",
                "You are Didi, the tutor of $preferred (written as is: the personality is sent as written)."
            ),
            (Role::System, "learner", "The learner is Sam, studying Korean."),
            (Role::Assistant, "history", "b"),
            (Role::User, "history", "c"),
            (Role::User, "question", "How do I say hello?"),
        ]
    );
}
