// `ContextValues`: every prompt struct's fields as data, for renderers that work at run
// time (hot reload). Each field kind, renamed fields, chat prompts, families, generics.
use promptic::context::{ContextField, ContextValue, ContextValues, FieldKind};
use promptic::{Guidance, Message};
use std::borrow::Cow;
use std::fmt::Display;

mod my {
    pub struct String(pub u32);
    impl std::fmt::Display for String {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "#{}", self.0)
        }
    }
}

#[derive(promptic::Prompt)]
#[prompt("guidance")]
struct Choice<'a> {
    topic: &'a str,
    #[prompt(one_of("lean", "detailed"))]
    level: String,
}

#[derive(promptic::Prompt)]
#[prompt("levels")]
struct Levels<'a> {
    topic: Cow<'a, str>,
    guidance: Guidance,
}

#[derive(promptic::Prompt)]
#[prompt("flagout")]
struct Flag {
    verbose: bool,
}

#[derive(promptic::Prompt)]
#[prompt("flagout")]
struct FlagRef<'a> {
    verbose: &'a bool,
}

#[derive(promptic::Prompt)]
#[prompt("user_types")]
struct Formatted {
    v: my::String,
    o: Option<u32>,
}

#[derive(promptic::Prompt)]
#[prompt("user_types")]
struct Numbers {
    v: f64,
    o: Option<my::String>,
}

#[derive(promptic::Prompt)]
#[prompt("day")]
struct Renamed {
    #[prompt(rename = "day")]
    the_day: String,
}

#[derive(promptic::Prompt)]
#[prompt("day")]
struct Generic<T: Display> {
    day: T,
}

#[derive(promptic::Prompt)]
#[prompt("plain")]
struct Plain;

#[derive(promptic::Prompt)]
#[prompt("chat")]
struct Chat<'a> {
    day: &'a str,
    note: Option<&'a str>,
    turns: Vec<Message>,
    question: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("chat_history")]
struct History<'a> {
    turns: &'a [Message],
    day: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt(family = "fam")]
struct Family<'a> {
    who: &'a str,
    note: Option<String>,
}

fn field(name: &'static str, kind: FieldKind) -> ContextField {
    ContextField { name, kind }
}

fn main() {
    // Kinds, in field order, with the names the prompt uses.
    assert_eq!(
        Choice::CONTEXT,
        [
            field("topic", FieldKind::Text),
            field("level", FieldKind::Choice(&["lean", "detailed"])),
        ]
    );
    assert_eq!(
        Levels::CONTEXT,
        [
            field("topic", FieldKind::Text),
            field("guidance", FieldKind::Choice(&["lean", "detailed"])),
        ]
    );
    assert_eq!(Flag::CONTEXT, [field("verbose", FieldKind::Flag)]);
    assert_eq!(FlagRef::CONTEXT, [field("verbose", FieldKind::Flag)]);
    assert_eq!(
        Formatted::CONTEXT,
        [field("v", FieldKind::Text), field("o", FieldKind::Optional)]
    );
    assert_eq!(Renamed::CONTEXT, [field("day", FieldKind::Text)]);
    assert!(Plain::CONTEXT.is_empty());
    assert_eq!(
        Chat::CONTEXT,
        [
            field("day", FieldKind::Text),
            field("note", FieldKind::Optional),
            field("turns", FieldKind::Messages),
            field("question", FieldKind::Text),
        ]
    );
    assert_eq!(
        History::CONTEXT,
        [field("turns", FieldKind::Messages), field("day", FieldKind::Text)]
    );
    assert_eq!(
        Family::CONTEXT,
        [field("who", FieldKind::Text), field("note", FieldKind::Optional)]
    );
    assert_eq!(Choice::STRUCT_NAME, "Choice");
    assert_eq!(<Generic<u8> as ContextValues>::STRUCT_NAME, "Generic");

    // Values: string-like ones borrowed, others formatted, flags as flags, `None` absent.
    let choice = Choice { topic: "tides", level: "lean".to_owned() };
    let values = choice.context_values();
    assert_eq!(
        values,
        [
            ("topic", ContextValue::Text(Cow::Borrowed("tides"))),
            ("level", ContextValue::Text(Cow::Borrowed("lean"))),
        ]
    );
    assert!(values.iter().all(|(_, v)| matches!(v, ContextValue::Text(Cow::Borrowed(_)))));

    let levels = Levels { topic: Cow::Owned("tides".to_owned()), guidance: Guidance::Lean };
    assert_eq!(
        levels.context_values(),
        [
            ("topic", ContextValue::Text("tides".into())),
            ("guidance", ContextValue::Text("lean".into())),
        ]
    );

    assert_eq!(Flag { verbose: true }.context_values(), [("verbose", ContextValue::Flag(true))]);
    assert_eq!(FlagRef { verbose: &false }.context_values(), [("verbose", ContextValue::Flag(false))]);

    let formatted = Formatted { v: my::String(7), o: Some(3) };
    assert_eq!(
        formatted.context_values(),
        [
            ("v", ContextValue::Text(Cow::Owned("#7".into()))),
            ("o", ContextValue::Text(Cow::Owned("3".into()))),
        ]
    );
    let numbers = Numbers { v: 2.5, o: None };
    assert_eq!(
        numbers.context_values(),
        [("v", ContextValue::Text("2.5".into())), ("o", ContextValue::Absent)]
    );

    let renamed = Renamed { the_day: "Friday".into() };
    assert_eq!(renamed.context_values(), [("day", ContextValue::Text("Friday".into()))]);
    assert_eq!(Generic { day: 24_u8 }.context_values(), [("day", ContextValue::Text("24".into()))]);
    assert!(Plain.context_values().is_empty());

    let turns = vec![Message::user("hi"), Message::assistant("hello")];
    let chat = Chat { day: "Friday", note: None, turns: turns.clone(), question: "Q?" };
    assert_eq!(
        chat.context_values(),
        [
            ("day", ContextValue::Text("Friday".into())),
            ("note", ContextValue::Absent),
            ("turns", ContextValue::Messages(&turns)),
            ("question", ContextValue::Text("Q?".into())),
        ]
    );
    let history = History { turns: &turns[..1], day: "Monday" };
    assert_eq!(history.context_values()[0], ("turns", ContextValue::Messages(&turns[..1])));

    let family = Family { who: "Ana", note: Some("late".into()) };
    assert_eq!(
        family.context_values(),
        [
            ("who", ContextValue::Text("Ana".into())),
            ("note", ContextValue::Text("late".into())),
        ]
    );

    // The map of text that `CheckedPrompt::render` takes.
    let map = chat.context_map();
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["day", "question"]);
    assert_eq!(Flag { verbose: false }.context_map()["verbose"], "false");
    assert_eq!(Flag { verbose: true }.context_map()["verbose"], "true");
    assert_eq!(numbers.context_map().len(), 1);
}
