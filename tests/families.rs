//! A derived family and the same folder read at run time choose the same member, and the
//! derived `render` gives the member's text, path and metadata.

use promptic::family::{CompiledMember, Family};
use promptic::load::Project;
use promptic::{Identity, Prompt, Tags};
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::Path;

#[derive(Prompt)]
#[prompt(family = "summarize")]
struct Summarize<'a> {
    text: &'a str,
    sprint: Option<&'a str>,
}

fn project() -> Project {
    Project::open(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts"),
        "prompts",
    )
    .unwrap()
}

fn family() -> Family {
    project().family("summarize").unwrap()
}

fn tags(pairs: &[(&str, &str)]) -> Tags {
    pairs.iter().copied().collect()
}

fn identity() -> Identity {
    Identity::from_json(r#"{"preferred": "Jordan"}"#).unwrap()
}

#[test]
fn the_most_specific_member_wins_and_the_default_takes_the_rest() {
    let pick = |pairs: &[(&str, &str)]| Summarize::select(&tags(pairs));
    assert_eq!(
        pick(&[("type", "meeting"), ("project", "myapp")]),
        "summarize/myapp_meetings"
    );
    assert_eq!(
        pick(&[("type", "standup"), ("project", "myapp")]),
        "summarize/myapp_meetings"
    );
    assert_eq!(
        pick(&[("type", "meeting"), ("project", "other")]),
        "summarize/meeting"
    );
    assert_eq!(pick(&[("type", "conversation")]), "summarize/conversation");
    assert_eq!(pick(&[("type", "standup")]), "summarize/default");
    assert_eq!(pick(&[]), "summarize/default");
    // a tag with two values: both `type=conversation` and `type=meeting` hold, one pair
    // each, and the tie goes to the name that sorts first
    assert_eq!(
        pick(&[("type", "meeting"), ("type", "conversation")]),
        "summarize/conversation"
    );
}

#[test]
fn members_lists_names_paths_and_rules_in_id_order() {
    let names: Vec<&str> = Summarize::MEMBERS.iter().map(|m| m.name).collect();
    assert_eq!(
        names,
        [
            "summarize/conversation",
            "summarize/default",
            "summarize/meeting",
            "summarize/myapp_meetings"
        ]
    );
    let myapp: &CompiledMember = &Summarize::MEMBERS[3];
    assert_eq!(myapp.path, "prompts/summarize/myapp_meetings.md");
    assert_eq!(
        myapp.rules,
        &[
            &[("type", "meeting"), ("project", "myapp")][..],
            &[("type", "standup"), ("project", "myapp")][..]
        ]
    );
    assert!(Summarize::MEMBERS[1].is_default());
    assert_eq!(Summarize::IDENTITY_KEYS, ["preferred"]);
    // the same rules as the folder read at run time
    let family = family();
    for (compiled, member) in Summarize::MEMBERS.iter().zip(family.members()) {
        assert_eq!(compiled.name, member.id);
        assert_eq!(compiled.to_rules(), member.rules);
    }
}

#[test]
fn render_gives_the_chosen_members_text_path_and_metadata() {
    let s = Summarize {
        text: "Standup notes.",
        sprint: Some("14"),
    };
    let out = s.render(
        &tags(&[("type", "standup"), ("project", "myapp")]),
        &identity(),
    );
    assert_eq!(out.path, "prompts/summarize/myapp_meetings.md");
    assert_eq!(
        out.metadata.title.as_deref(),
        Some("Summarize a myapp meeting")
    );
    assert_eq!(out.metadata.max_output_tokens, Some(1024));
    assert!(out.text.contains("This is sprint 14"), "{}", out.text);
    assert!(out.text.ends_with("\n\nStandup notes."), "{}", out.text);
    let out = s.render(&Tags::new(), &identity());
    assert_eq!(out.path, "prompts/summarize/default.md");
    assert!(
        out.text
            .starts_with("Summarize the document below for Jordan"),
        "{}",
        out.text
    );
    // the run-time renderer gives the same bytes for the same member
    let project = project();
    let prompt = project.check_inferred("summarize/default").unwrap();
    let context = HashMap::from([("text".to_owned(), "Standup notes.".to_owned())]);
    assert_eq!(prompt.render(&context, &identity()).unwrap().text, out.text);
}

#[test]
fn each_member_is_a_constant_and_renders_by_name_whatever_the_tags() {
    assert_eq!(Summarize::MYAPP_MEETINGS, Summarize::MEMBERS[3]);
    assert_eq!(Summarize::CONVERSATION.name, "summarize/conversation");
    assert!(Summarize::DEFAULT.is_default());
    let s = Summarize {
        text: "Notes.",
        sprint: None,
    };
    let by_name = s.render_member(&Summarize::MEETING, &identity()).unwrap();
    let by_tags = s.render(&tags(&[("type", "meeting")]), &identity());
    assert_eq!(by_name, by_tags);
    assert_eq!(by_name.path, "prompts/summarize/meeting.md");
    // a tag value padded as keep pads it still chooses the member
    assert_eq!(
        Summarize::select(&tags(&[("type", " meeting\u{a0}")])),
        "summarize/meeting"
    );
}

/// Keys and values from the family's rules, and others that no rule names.
fn tag_strategy() -> impl Strategy<Value = Vec<(String, String)>> {
    let key = prop::sample::select(vec!["type", "project", "topic", "lang"]);
    let value = prop::sample::select(vec![
        "meeting",
        "standup",
        "conversation",
        "myapp",
        "other",
        "paper",
    ]);
    prop::collection::vec((key, value), 0..6).prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    })
}

proptest! {
    #[test]
    fn generated_and_run_time_selection_agree(pairs in tag_strategy()) {
        let tags: Tags = pairs.into_iter().collect();
        let family = family();
        let runtime = family.select(&tags).map(|m| m.id.as_str());
        prop_assert_eq!(Some(Summarize::select(&tags)), runtime);
    }
}
