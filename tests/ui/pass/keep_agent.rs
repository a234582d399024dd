// A derived keep agent prompt, and `prompt!` on one, render the bytes the run-time front
// end renders (includes expanded, then `AgentPrompt::render`) for the same values, over
// many value sets.
use promptic::formats::keep::{AgentPrompt, expand_includes};
use promptic::load::Project;
use std::collections::HashMap;

#[derive(promptic::Prompt)]
#[prompt("keep/reflect")]
struct Reflect<'a> {
    text: &'a str,
    since: Option<&'a str>,
    recent: Option<String>,
    questions: Option<&'a str>,
}

#[derive(promptic::Prompt)]
#[prompt("keep/digest")]
struct Digest {
    since: String,
    until: String,
    topics: Option<Topics>,
    count: u32,
}

/// A value that is no text: rendered through `Display`.
struct Topics(Vec<&'static str>);

impl std::fmt::Display for Topics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join(", "))
    }
}

#[derive(promptic::Prompt)]
#[prompt("keep/plain")]
struct Plain<'a> {
    name: Option<&'a str>,
    note: &'a str,
}

/// The run-time path: the prompt read from the folder, its includes expanded, rendered
/// with a value function of name and arguments.
fn runtime(name: &str, values: &HashMap<&str, String>, retrieve: &dyn Fn(&str, &[&str]) -> Option<String>) -> String {
    let dir = std::path::Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let file = project.load_prompt(name).unwrap();
    let template = expand_includes(&format!(".prompt/{name}"), file.body_text(), |n| {
        project.load_prompt(n).ok().map(|f| f.body_text().to_owned())
    })
    .unwrap();
    AgentPrompt::parse(&template).render(|n, args| match n {
        "get" | "find" => retrieve(n, args),
        _ => values.get(n).cloned(),
    })
}

fn retrieval(found: &'static str) -> impl Fn(&str, &[&str]) -> Option<String> {
    move |name: &str, args: &[&str]| match (name, args, found) {
        (_, _, "nothing") => None,
        ("get", [], _) => Some(format!("The note: {found}\n\n\n\nend of note")),
        ("find", ["deep", budget], _) => Some(format!("[{found} within {budget} tokens]")),
        ("find", [], _) => Some(format!("[{found}]")),
        _ => Some(format!("unexpected {name} {args:?}")),
    }
}

fn main() {
    let texts = ["Why did the launch slip?", "", "  \n", "with {text} inside"];
    let options = [None, Some(""), Some(" \u{1f}\n"), Some("since Monday"), Some("line\n\n\n\nline")];
    let finds = ["nothing", "two notes", "   "];
    let mut compared = 0;
    for text in texts {
        for since in options {
            for recent in options {
                for questions in options {
                    for found in finds {
                        let derived = Reflect {
                            text,
                            since,
                            recent: recent.map(str::to_owned),
                            questions,
                        }
                        .render(retrieval(found));
                        // `prompt!`: the same values as arguments, an `Option` where one
                        // may be missing (owned or borrowed)
                        let recent_owned = recent.map(str::to_owned);
                        let inline = promptic::prompt!(
                            "keep/reflect",
                            text,
                            since,
                            recent = &recent_owned,
                            questions
                        );
                        assert_eq!(inline.render(retrieval(found)), derived);
                        let mut values = HashMap::new();
                        values.insert("text", text.to_owned());
                        for (k, v) in [("since", since), ("recent", recent), ("questions", questions)] {
                            if let Some(v) = v {
                                values.insert(k, v.to_owned());
                            }
                        }
                        let run_time = runtime("keep/reflect", &values, &retrieval(found));
                        assert_eq!(derived.text, run_time, "{text:?} {since:?} {recent:?} {questions:?} {found:?}");
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(compared, 4 * 5 * 5 * 5 * 3);

    // what the comparison rests on, seen once
    let out = Reflect { text: "Why?", since: None, recent: Some(" ".into()), questions: None }
        .render(retrieval("two notes"));
    assert!(out.text.starts_with("You keep a notebook for one person."), "{}", out.text);
    assert!(out.text.contains("## Notes since the beginning\n(none yet)\n\n## Open questions\n\nKeep JSON such as {\"mood\": 3} and {Capitalised} braces"), "{}", out.text);
    assert!(out.text.contains("[two notes within 3000 tokens]"));
    assert!(!out.text.contains("\n\n\n"));
    assert_eq!(out.path, "prompts/keep/reflect.md");
    assert_eq!(out.metadata.title.as_deref(), Some("Reflect on recent notes"));
    assert_eq!(Reflect::RETRIEVALS, [("get", &[][..]), ("find", &["deep", "3000"][..])]);
    assert!(!Reflect::TEMPLATE.contains("{{include:"));

    // `Display` values and an `Option` of one
    for topics in [None, Some(vec![]), Some(vec!["work", "home"])] {
        let mut values = HashMap::new();
        values.insert("since", "May".to_owned());
        values.insert("until", "June".to_owned());
        values.insert("count", "7".to_owned());
        if let Some(t) = &topics {
            values.insert("topics", t.join(", "));
        }
        let d = Digest { since: "May".into(), until: "June".into(), topics: topics.map(Topics), count: 7 };
        assert_eq!(d.render(retrieval("x")).text, runtime("keep/digest", &values, &retrieval("x")));
    }
    let d = Digest { since: "May".into(), until: "June".into(), topics: Some(Topics(vec![])), count: 7 };
    assert!(d.render(retrieval("x")).text.ends_with("[x]\n\nTopics: (no topics)\nCount: 7"));

    // no retrieval: `render()` takes nothing
    for name in [None, Some("Ada"), Some("\t")] {
        for note in ["", "P.S.", "\n\n\nP.S.\n\n\n"] {
            let mut values = HashMap::new();
            values.insert("note", note.to_owned());
            if let Some(n) = name {
                values.insert("name", n.to_owned());
            }
            let none = |_: &str, _: &[&str]| None;
            assert_eq!(Plain { name, note }.render().text, runtime("keep/plain", &values, &none));
            // an argument that is no `Option` is always given (blank: the fallback)
            let given = promptic::prompt!("keep/plain", name = name.unwrap_or(""), note);
            let mut with_name = values.clone();
            with_name.insert("name", name.unwrap_or("").to_owned());
            assert_eq!(given.render().text, runtime("keep/plain", &with_name, &none));
            assert_eq!(
                given.output(&promptic::Identity::default()).unwrap(),
                promptic::formats::Output::Text(given.render())
            );
        }
    }
    assert_eq!(Plain { name: None, note: "" }.render().text, "Greet the reader, briefly.");
}
