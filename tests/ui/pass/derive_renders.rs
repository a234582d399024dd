use promptic::{Identity, Prompt};

#[derive(Prompt)]
#[prompt("agents/greeter")]
struct Greeter<'a> {
    day: &'a str,
    segment_start: String,
    note: Option<&'a str>,
    verbose: bool,
    count: u32,
}

#[derive(Prompt)]
#[prompt("plain")]
struct Plain;

#[derive(Prompt)]
#[prompt("day")]
struct Renamed {
    #[prompt(rename = "day")]
    the_day: std::borrow::Cow<'static, str>,
}

fn main() {
    let identity = Identity::from_json(
        r#"{"name": "Sam Poe", "preferred": "sam", "pronouns": {"subject": "they"}}"#,
    )
    .unwrap();
    let greeter = Greeter {
        day: "Friday",
        segment_start: "9:00".to_owned(),
        note: Some("bring coffee"),
        verbose: true,
        count: 3,
    };
    let out = greeter.render(&identity);
    assert_eq!(
        out.text,
        "Segment of Friday starting at 9:00.\nHi Sam (they)! Cost: $5, $5.\nNote: Bring coffee\nVerbose mode, 3 items.\nBye Sam Poe."
    );
    assert_eq!(out.path, "prompts/agents/greeter.md");
    assert_eq!(out.metadata.title.as_deref(), Some("Greeter"));
    assert_eq!(out.metadata.color.to_string(), "#4caf50");
    assert_eq!(out.metadata.tier, Some(2));
    assert_eq!(out.metadata.extra.get("model_hint"), Some("\"fast\""));

    let quiet = Greeter { note: None, verbose: false, ..greeter };
    assert_eq!(
        quiet.render(&identity).text,
        "Segment of Friday starting at 9:00.\nHi Sam (they)! Cost: $5, $5.\nNo note.\nBye Sam Poe."
    );

    assert_eq!(<Greeter as Prompt>::NAME, "agents/greeter");
    assert_eq!(Greeter::IDENTITY_KEYS, ["name", "preferred", "pronouns_subject"]);
    let sources: Vec<_> = Greeter::VARIABLES.iter().map(|v| (v.name, v.source.as_str())).collect();
    assert!(sources.contains(&("segment_preamble", "template")));
    assert!(sources.contains(&("Preferred", "identity")));
    assert!(sources.contains(&("count", "context")));
    assert!(Greeter::SOURCE.starts_with("{\n  \"title\": \"Greeter\""));
    assert!(promptic::check_identity(&identity, &[Greeter::IDENTITY_KEYS]).is_ok());

    assert_eq!(Plain.render(&identity).text, "Plain text with no placeholders at all.");
    let r = Renamed { the_day: "Monday".into() };
    assert_eq!(r.render(&identity).text, "Today is Monday.");

    // prompt! with shorthand and named arguments
    let day = "Sunday";
    let note: Option<&str> = None;
    let out = promptic::prompt!(
        "agents/greeter",
        day,
        segment_start = "8:15",
        note,
        verbose = false,
        count = 0
    )
    .render(&identity);
    assert!(out.text.starts_with("Segment of Sunday starting at 8:15.\n"));
    assert!(out.text.contains("No note."));
    assert_eq!(promptic::prompt!("plain").render(&identity).text, "Plain text with no placeholders at all.");
}
