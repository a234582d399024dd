// A derived family whose members carry keep's `scope` chooses, through `select_for`, the
// member the run-time `Family::select_for` chooses, for every tag set and item id tried.
use promptic::load::Project;
use promptic::{Identity, Tags};

#[derive(promptic::Prompt)]
#[prompt(family = "fam_scoped")]
struct Describe<'a> {
    who: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt(family = "fam_all_scoped")]
struct Supernode<'a> {
    who: &'a str,
}

fn main() {
    let dir = std::path::Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let scoped = project.family("fam_scoped").unwrap();
    let all_scoped = project.family("fam_all_scoped").unwrap();
    let tag_sets: Vec<Tags> = vec![
        Tags::new(),
        [("type", "meeting")].into_iter().collect(),
        [("type", "call"), ("project", "alpha")].into_iter().collect(),
        [("type", "never")].into_iter().collect(),
    ];
    let ids = [
        None,
        Some(""),
        Some("notes/today"),
        Some("ada@example.com"),
        Some("https://docs.example.org/guide"),
        Some("https://example.com/"),
        Some("http://docs.example.org/x"),
    ];
    let mut compared = 0;
    for tags in &tag_sets {
        for id in ids {
            let run_time = scoped.select_for(tags, id).map(|m| m.id.as_str());
            assert_eq!(Describe::select_for(tags, id), run_time, "{tags:?} {id:?}");
            let run_time = all_scoped.select_for(tags, id).map(|m| m.id.as_str());
            assert_eq!(Supernode::select_for(tags, id), run_time, "{tags:?} {id:?}");
            compared += 2;
        }
        // without an item the scoped members are out
        assert_eq!(Describe::select(tags), scoped.select(tags).unwrap().id);
    }
    assert_eq!(compared, 56);

    // what the comparison rests on, seen once
    let none = Tags::new();
    let meeting: Tags = [("type", "meeting")].into_iter().collect();
    assert_eq!(Describe::select(&none), "fam_scoped/default");
    // a scope of `*` ties with the default, and `any` sorts first
    assert_eq!(Describe::select_for(&none, Some("notes/today")), Some("fam_scoped/any"));
    // the meeting rule (1) beats `*` (0); a scope's length beats both, rules unread
    assert_eq!(Describe::select_for(&meeting, Some("notes/today")), Some("fam_scoped/meeting"));
    assert_eq!(Describe::select_for(&meeting, Some("ada@example.com")), Some("fam_scoped/email"));
    assert_eq!(
        Describe::select_for(&none, Some("https://docs.example.org/guide")),
        Some("fam_scoped/docs_site")
    );
    assert_eq!(Supernode::select_for(&none, None), None);
    assert_eq!(Supernode::select_for(&none, Some("x")), Some("fam_all_scoped/default"));

    let identity = Identity::default();
    let d = Describe { who: "Ada" };
    let out = d.render_for(&meeting, Some("notes/today"), &identity).unwrap();
    assert_eq!((out.text.as_str(), out.path.as_ref()), ("Meeting notes for Ada.", "prompts/fam_scoped/meeting.md"));
    assert_eq!(d.render(&none, &identity).text, "Default.");
    let s = Supernode { who: "Ada" };
    assert_eq!(s.render_for(&none, Some("ada@example.com"), &identity).unwrap().text, "A contact card for Ada.");
    assert!(s.render_for(&none, None, &identity).is_none());
    assert_eq!(Supernode::MEMBERS.len(), 2);
}
