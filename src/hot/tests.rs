//! The reload machinery with hand-written prompts; `tests/hot_reload.rs` runs it on
//! derived ones.

use super::*;
use prompt_runtime::PromptVariable;
use prompt_runtime::context::FieldKind;
use prompt_runtime::meta::Meta;

/// `prompts/note.md`: "Note: $text" by hand, as the derive would write it.
struct Note<'a> {
    text: &'a str,
}

impl Prompt for Note<'_> {
    const NAME: &'static str = "note";
    const PATH: &'static str = "prompts/note.md";
    const META: Meta = Meta::DEFAULT;
    const SOURCE: &'static str = "Note: $text";
    const VARIABLES: &'static [PromptVariable] = &[];
    const IDENTITY_KEYS: &'static [&'static str] = &[];
    const VERSION: &'static str = "compiled";
    fn render(&self, _: &Identity) -> PromptContent {
        PromptContent {
            text: format!("Note: {}", self.text),
            path: Cow::Borrowed(Self::PATH),
            metadata: Cow::Owned(Meta::DEFAULT),
            breakpoints: Vec::new(),
        }
    }
}

impl ContextValues for Note<'_> {
    const STRUCT_NAME: &'static str = "Note";
    const CONTEXT: &'static [ContextField] = &[ContextField {
        name: "text",
        kind: FieldKind::Text,
    }];
    fn context_values(&self) -> Vec<(&'static str, ContextValue<'_>)> {
        vec![("text", ContextValue::Text(self.text.into()))]
    }
}

/// A scratch root with `prompts/note.md`, removed when dropped.
struct Root(PathBuf);

impl Root {
    fn new(name: &str) -> Root {
        let root = std::env::temp_dir().join(format!("promptic-hot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("prompts/templates")).unwrap();
        let r = Root(root);
        r.write("prompts/note.md", "Note: $text");
        r
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn hot(&self) -> HotPrompt<Note<'static>> {
        HotPrompt::<Note>::builder()
            .root(&self.0)
            .enabled(true)
            .in_release(true)
            .build()
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(hot: &HotPrompt<Note<'_>>) -> String {
    hot.render(&Note { text: "hi" }, &Identity::default()).text
}

#[test]
fn a_reload_swaps_in_the_checked_text_and_keeps_it_on_failure() {
    let root = Root::new("swap");
    let hot = root.hot();
    assert_eq!(text(&hot), "Note: hi");
    root.write("prompts/note.md", "Memo: $Text");
    assert_eq!(hot.reload(), Ok(true));
    assert_eq!(text(&hot), "Memo: Hi");
    assert_eq!(hot.version().len(), 16);
    root.write("prompts/note.md", "Memo: $txet");
    let problems = hot.reload().unwrap_err();
    assert_eq!(problems.0[0].help(), Some("did you mean `$text`?"));
    assert_eq!(text(&hot), "Memo: Hi");
    let shown = format!("{hot:?}");
    assert!(shown.starts_with("HotPrompt { prompt: \"prompts/note.md\", enabled: true"));
}

#[test]
fn reload_if_changed_returns_at_once_while_another_reload_runs() {
    let root = Root::new("busy");
    let hot = root.hot();
    root.write("prompts/note.md", "Memo: $text");
    let busy = hot.core.watch.lock().unwrap();
    assert_eq!(hot.reload_if_changed(), Ok(false));
    drop(busy);
    assert_eq!(hot.reload_if_changed(), Ok(true));
    assert_eq!(text(&hot), "Memo: hi");
}

#[test]
fn a_large_template_is_refused_before_it_is_read() {
    let root = Root::new("large");
    let hot = root.hot();
    let big = "x".repeat(usize::try_from(MAX_FILE).unwrap() + 1);
    root.write("prompts/templates/big.md", &big);
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        format!(
            "`prompts/templates/big.md` is {} bytes, more than a reload reads ({MAX_FILE})",
            MAX_FILE + 1
        )
    );
    assert_eq!(text(&hot), "Note: hi");
}

#[test]
fn the_templates_folder_that_promptic_json_names_is_watched() {
    let root = Root::new("moved");
    root.write("prompts/promptic.json", "{\"templates\": \"parts\"}");
    root.write("prompts/parts/sig.md", "-- A");
    root.write("prompts/note.md", "Note: $text $sig");
    let hot = root.hot();
    assert_eq!(hot.reload_if_changed(), Ok(true));
    assert_eq!(text(&hot), "Note: hi -- A");
    assert_eq!(hot.reload_if_changed(), Ok(false));
    root.write("prompts/parts/sig.md", "-- Bee");
    assert_eq!(hot.reload_if_changed(), Ok(true));
    assert_eq!(text(&hot), "Note: hi -- Bee");
}

#[test]
fn a_text_prompt_must_stay_one_and_values_out_of_order_are_absent() {
    let root = Root::new("kind");
    let hot = root.hot();
    root.write("prompts/note.md", "Note: $text\n{% user %}\nmore");
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "prompts/note.md has chat sections, but `Note` was compiled as a text prompt"
    );
    // The values come in the struct's order; one that does not fit its place is left out.
    root.write("prompts/note.md", "Memo: $text");
    hot.reload().unwrap();
    let current = hot.core.current.current();
    let Current::Reloaded(reloaded) = &*current else {
        panic!("reloaded");
    };
    let values = [("other", ContextValue::Text("x".into()))];
    assert_eq!(reloaded.value(&values, 0), Fill::Absent);
    assert_eq!(reloaded.value(&values, 5), Fill::Absent);
    let values = [("text", ContextValue::Text("x".into()))];
    assert_eq!(reloaded.value(&values, 0), Fill::Text("x"));
}

#[test]
fn off_in_release_unless_allowed() {
    let root = Root::new("release");
    let on = HotPrompt::<Note>::builder()
        .root(&root.0)
        .enabled(true)
        .build();
    assert_eq!(on.is_enabled(), cfg!(debug_assertions));
    assert!(root.hot().is_enabled());
    assert!(
        !HotPrompt::<Note>::builder()
            .in_release(true)
            .build()
            .is_enabled()
    );
}
