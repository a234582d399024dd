//! The derive puts a rustdoc page on the generated `render`: title, description, metadata,
//! variables and source. A scratch crate is documented with the real `cargo doc`.

mod common;

use common::Scratch;

const MAIN: &str = r#"//! A crate with one documented prompt.

/// The morning greeting.
#[derive(promptic::Prompt)]
#[prompt("greeting")]
pub struct Greeting<'a> {
    pub who: &'a str,
}

fn main() {}
"#;

const PROMPT: &str = r##"{
  "title": "Morning greeting",
  "description": "Greets the reader before the first segment of the day.",
  "color": "#FF9800",
  "schedule": "daily",
  "owner": "growth team"
}

$intro
Good morning $who, this is $name speaking.
"##;

#[test]
fn rustdoc_shows_the_prompt() {
    let krate = Scratch::new(
        "promptic_docs",
        &[
            ("src/main.rs", MAIN),
            (
                "prompts/promptic.json",
                "{\n  \"identity\": { \"name\": \"Example Name\" }\n}\n",
            ),
            ("prompts/greeting.md", PROMPT),
            ("prompts/templates/intro.md", "A new day begins."),
        ],
    );
    let docs = common::target_dir().join("doc").join(&krate.name);
    // A page left by an earlier run must not pass for this one, and the dependencies'
    // pages must be absent, as `--no-deps` leaves them on a fresh machine (rustdoc links
    // to pages it finds on disk before any other).
    for dir in [&krate.name, "prompt_runtime", "promptic", "prompt_macros"] {
        let dir = common::target_dir().join("doc").join(dir);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("remove the old documentation");
        }
    }
    krate.cargo(&["doc", "--no-deps"]).ok();
    let page = docs.join("struct.Greeting.html");
    let html =
        std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("read {}: {e}", page.display()));
    for expected in [
        // Title and description.
        "Morning greeting",
        "Greets the reader before the first segment of the day.",
        // Metadata; the color is normalized to lowercase.
        "#ff9800",
        "daily",
        // What a caller passes; variables: name, source, field type, uses.
        "A caller passes: <code>who</code>.",
        "<tr><td><code>$intro</code></td><td>template</td><td></td><td><code>prompts/greeting.md:9:1</code></td></tr>",
        "<tr><td><code>$who</code></td><td>context</td><td><code>&amp;'a str</code></td><td><code>prompts/greeting.md:10:14</code></td></tr>",
        "<tr><td><code>$name</code></td><td>identity</td><td></td><td><code>prompts/greeting.md:10:28</code></td></tr>",
        // The source.
        "Good morning $who, this is $name speaking.",
        "&quot;schedule&quot;: &quot;daily&quot;",
    ] {
        assert!(
            html.contains(expected),
            "{} lacks {expected:?}",
            page.display()
        );
    }

    // The `Prompt` trait's docs, shown on the implementation, link into prompt-runtime's
    // pages: no link is left as text in brackets (rustdoc's way of showing one it could
    // not resolve).
    // (The version is the workspace's: `html_root_url` in prompt-runtime must follow it.)
    let link = concat!(
        "href=\"https://docs.rs/prompt-runtime/",
        env!("CARGO_PKG_VERSION"),
        "/prompt_runtime/prompt/fn.check_identity.html\""
    );
    assert!(
        html.contains(link),
        "{} does not link `check_identity`",
        page.display()
    );
    assert!(
        !html.contains("[<code>"),
        "{} has a link left unresolved",
        page.display()
    );

    // The metadata table: typed keys in `Meta::KEYS` order, then extras; text unquoted.
    let rows: Vec<usize> = [
        "<tr><td><code>title</code></td><td><code>Morning greeting</code></td></tr>",
        "<tr><td><code>description</code></td>",
        "<tr><td><code>color</code></td><td><code>#ff9800</code></td></tr>",
        "<tr><td><code>schedule</code></td><td><code>daily</code></td></tr>",
        "<tr><td><code>owner</code></td><td><code>growth team</code></td></tr>",
    ]
    .iter()
    .map(|row| {
        html.find(row)
            .unwrap_or_else(|| panic!("{} lacks the row {row:?}", page.display()))
    })
    .collect();
    assert!(
        rows.is_sorted(),
        "metadata rows out of order in {}",
        page.display()
    );
}

/// A description with a code block in it is shown as text: rustdoc would otherwise compile
/// it as a doctest of the user's crate and fail their `cargo test`.
#[test]
fn code_in_a_description_is_not_a_doctest() {
    const LIB: &str = r#"//! A library with one documented prompt.

/// Answers in a fixed shape.
#[derive(promptic::Prompt)]
#[prompt("shaped")]
pub struct Shaped<'a> {
    pub question: &'a str,
}
"#;
    const SHAPED: &str = "{\n  \"description\": \"Answers like this:\\n\\n```\\n{ not: rust }\\n```\\n\\nor indented:\\n\\n    also not rust\"\n}\n\nAnswer $question.\n";
    let krate = Scratch::new(
        "promptic_doctest",
        &[("src/lib.rs", LIB), ("prompts/shaped.md", SHAPED)],
    );
    krate.cargo(&["test", "--doc"]).ok();
}
