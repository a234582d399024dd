//! Hot reload (`--features hot-reload`): derived prompts compiled from `prompts/`, reloaded
//! from an edited copy of that folder in a scratch directory.

#![cfg(feature = "hot-reload")]

use promptic::hot::{HotChat, HotPrompt};
use promptic::{Diagnostics, Guidance, Identity, Message, Prompt};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Prompt)]
#[prompt("daily_summary")]
struct DailySummary<'a> {
    day: &'a str,
    #[prompt(rename = "day_YYYYMMDD")]
    day_yyyymmdd: &'a str,
    facet: Option<String>,
}

#[derive(Prompt)]
#[prompt("agents/journal_assistant")]
struct JournalAssistant<'a> {
    now: &'a str,
    verbose: bool,
}

#[derive(Prompt)]
#[prompt("research_answer")]
struct ResearchAnswer {
    guidance: Guidance,
}

#[derive(Prompt)]
#[prompt("journal_chat")]
struct JournalChat<'a> {
    day: &'a str,
    note: Option<&'a str>,
    turns: &'a [Message],
    question: &'a str,
}

const DAILY: &str = "prompts/daily_summary.md";

/// A copy of this crate's `prompts/` under a scratch root, removed when dropped.
struct Root(PathBuf);

impl Root {
    fn new(name: &str) -> Root {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hot-{name}"));
        let _ = fs::remove_dir_all(&root);
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts"),
            &root.join("prompts"),
        );
        Root(root)
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap()
    }

    /// Writes `rel` whole: a temporary file renamed over it, as editors save.
    fn write(&self, rel: &str, text: impl AsRef<[u8]>) {
        let path = self.path(rel);
        let temp = path.with_extension("md.tmp");
        fs::write(&temp, text).unwrap();
        fs::rename(&temp, &path).unwrap();
    }

    /// Rewrites `rel` with `from` replaced by `to` (which must be there).
    fn edit(&self, rel: &str, from: &str, to: &str) {
        let text = self.read(rel);
        assert!(text.contains(from), "{rel} has no {from:?}");
        self.write(rel, text.replacen(from, to, 1));
    }

    fn daily(&self) -> HotPrompt<DailySummary<'static>> {
        HotPrompt::<DailySummary>::builder()
            .root(&self.0)
            .enabled(true)
            .build()
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn identity() -> Identity {
    Identity::from_json(include_str!("../prompts/promptic.json")).unwrap()
}

fn friday(facet: Option<&str>) -> DailySummary<'static> {
    DailySummary {
        day: "Friday, January 24, 2026",
        day_yyyymmdd: "20260124",
        facet: facet.map(str::to_owned),
    }
}

/// The first diagnostic's message and where it points.
fn first(problems: &Diagnostics) -> (String, String, usize, usize) {
    let d = &problems.0[0];
    let at = d.location().expect("a located diagnostic");
    (d.message().to_owned(), at.path.clone(), at.line, at.col)
}

#[test]
fn an_unchanged_file_keeps_the_compiled_code_and_a_good_edit_renders_the_new_text() {
    // The reloaded text through the run-time renderer needs the real promptic runtime
    // only: this test shows it renders what the compiled code renders.
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("good-edit");
    let hot = root.daily();
    let identity = identity();
    let compiled = friday(Some("work")).render(&identity);
    assert_eq!(hot.render(&friday(Some("work")), &identity), compiled);

    // The files are as compiled: the compiled code keeps rendering.
    assert_eq!(hot.reload(), Ok(false));
    assert!(!hot.is_reloaded());
    assert_eq!(hot.version(), DailySummary::VERSION);

    // A frontmatter key that changes nothing rendered: the reloaded text renders, through
    // the run-time renderer, exactly what the compiled code does.
    root.edit(
        DAILY,
        "\"schedule\": \"daily\",",
        "\"schedule\": \"daily\",\n  \"owner\": \"me\",",
    );
    assert_eq!(hot.reload(), Ok(true));
    assert!(hot.is_reloaded());
    assert_ne!(hot.version(), DailySummary::VERSION);
    for facet in [None, Some("work"), Some("")] {
        let context = friday(facet);
        let reloaded = hot.render(&context, &identity);
        let compiled = context.render(&identity);
        assert_eq!(reloaded.text, compiled.text, "{facet:?}");
        assert_eq!(reloaded.path, compiled.path);
        assert_eq!(reloaded.metadata.title, compiled.metadata.title);
        assert_eq!(reloaded.metadata.extra.get("owner"), Some("\"me\""));
    }

    // The text changes: the new text renders, with the renamed field and the option.
    root.edit(
        DAILY,
        "# Daily Summary for $day",
        "# $Day_yyyymmdd: the day in one page",
    );
    root.edit(
        DAILY,
        "\"title\": \"Daily Summary\"",
        "\"title\": \"One page a day\"",
    );
    assert_eq!(hot.reload(), Ok(true));
    let out = hot.render(&friday(Some("health")), &identity);
    assert!(
        out.text.contains("\n# 20260124: the day in one page\n"),
        "{}",
        out.text
    );
    assert!(out.text.contains("Focus on the **health** facet."));
    assert_eq!(out.metadata.title.as_deref(), Some("One page a day"));
    assert_eq!(out.path, DAILY);
    assert!(hot.last_error().is_none());
    // A second reload of the same files changes nothing.
    assert_eq!(hot.reload(), Ok(false));

    // Back to the compiled text: the compiled code renders again.
    root.write(DAILY, DailySummary::SOURCE);
    assert_eq!(hot.reload(), Ok(true));
    assert!(!hot.is_reloaded());
    assert_eq!(hot.render(&friday(Some("work")), &identity), compiled);
}

#[test]
fn a_bad_edit_is_refused_where_it_stands_and_the_previous_text_keeps_rendering() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("bad-edit");
    let hot = root.daily();
    let identity = identity();
    let compiled = friday(None).render(&identity);
    let original = root.read(DAILY);

    // An unknown name, with the suggestion the derive gives: the compiled text renders.
    root.edit(
        DAILY,
        "# Daily Summary for $day",
        "# Daily Summary for $dya",
    );
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        first(&problems),
        ("unknown placeholder `$dya`".into(), DAILY.into(), 11, 21)
    );
    assert_eq!(problems.0[0].help(), Some("did you mean `$day`?"));
    let shown = problems.to_string();
    assert!(
        shown.contains("--> prompts/daily_summary.md:11:21"),
        "{shown}"
    );
    assert!(shown.contains("# Daily Summary for $dya"), "{shown}");
    assert_eq!(hot.last_error(), Some(problems));
    assert_eq!(hot.render(&friday(None), &identity), compiled);
    assert!(!hot.is_reloaded());

    // A good edit, then bad ones: the good edit keeps rendering.
    root.write(DAILY, original.replace("two minutes", "one minute"));
    assert_eq!(hot.reload(), Ok(true));
    assert!(hot.last_error().is_none());
    let good = hot.render(&friday(None), &identity).text;
    assert!(good.contains("can read in one minute"));

    let bad_edits: [(&str, &str, &str); 6] = [
        // a new name the struct lacks, with the derive's help
        (
            "# Daily Summary for $day",
            "# Daily Summary for $day in $weather",
            "unknown placeholder `$weather`",
        ),
        // a misspelt template
        (
            "$daily_preamble",
            "$daily_preambel",
            "unknown placeholder `$daily_preambel`",
        ),
        // a block closed twice
        (
            "{% endif %}",
            "{% endif %}\n{% endif %}",
            "`{% endif %}` without an open `{% if %}`",
        ),
        // a block on a value that is always there
        (
            "{% if facet %}",
            "{% if day %}",
            "`{% if day %}` tests `day`, which is always present",
        ),
        // the optional outside its block
        (
            "# Daily Summary for $day",
            "# Daily Summary for $day and $facet",
            "`$facet` is optional and may be absent, but it is used outside `{% if facet %}`",
        ),
        // a frontmatter value of the wrong type
        (
            "\"thinking_budget\": 4096",
            "\"thinking_budget\": \"lots\"",
            "frontmatter key `thinking_budget` must be a non-negative integer",
        ),
    ];
    for (from, to, message) in bad_edits {
        root.write(
            DAILY,
            original
                .replace("two minutes", "one minute")
                .replacen(from, to, 1),
        );
        let problems = hot.reload().unwrap_err();
        let (found, path, line, col) = first(&problems);
        assert!(found.starts_with(message), "{to}: {problems}");
        assert_eq!(path, DAILY, "{to}");
        assert!(line > 0 && col > 0, "{to}");
        assert!(
            problems
                .to_string()
                .contains(&format!("--> {DAILY}:{line}:{col}")),
            "{problems}"
        );
        assert_eq!(hot.render(&friday(None), &identity).text, good, "{to}");
        assert_eq!(hot.last_error(), Some(problems));
    }

    // A field the text no longer uses is refused too: the struct would not compile.
    let start = original.find("{% if facet %}").unwrap();
    let end = original.find("{% endif %}\n").unwrap() + "{% endif %}\n".len();
    root.write(
        DAILY,
        format!(
            "{}Cover the whole day.\n{}",
            &original[..start],
            &original[end..]
        ),
    );
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "field `facet` of `DailySummary` is not used by prompts/daily_summary.md"
    );
    assert_eq!(hot.render(&friday(None), &identity).text, good);

    // A template the prompt uses, broken: refused at its own line.
    root.write(DAILY, &original);
    root.edit(
        "prompts/templates/daily_preamble.md",
        "recorded on $day.",
        "recorded on $dday.",
    );
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        first(&problems),
        (
            "unknown placeholder `$dday`".into(),
            "prompts/templates/daily_preamble.md".into(),
            1,
            74
        )
    );
    assert_eq!(hot.render(&friday(None), &identity).text, good);
    // Fixed: the template's edit renders.
    root.edit(
        "prompts/templates/daily_preamble.md",
        "recorded on $dday.",
        "written on $day.",
    );
    assert_eq!(hot.reload(), Ok(true));
    assert!(
        hot.render(&friday(None), &identity)
            .text
            .contains("written on Friday, January 24, 2026.")
    );
}

#[test]
fn a_file_that_goes_away_or_cannot_be_read_keeps_the_last_good_text() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("gone");
    let hot = root.daily();
    let identity = identity();
    let original = root.read(DAILY);
    root.edit(DAILY, "two minutes", "one minute");
    assert_eq!(hot.reload(), Ok(true));
    let good = hot.render(&friday(None), &identity);

    let refused = |why: &str| {
        let problems = hot.reload().unwrap_err();
        assert_eq!(hot.render(&friday(None), &identity), good, "{why}");
        assert_eq!(hot.last_error().as_ref(), Some(&problems), "{why}");
        problems.0[0].message().to_owned()
    };
    fs::remove_file(root.path(DAILY)).unwrap();
    assert_eq!(
        refused("deleted"),
        "prompt file `prompts/daily_summary.md` not found"
    );
    fs::create_dir(root.path(DAILY)).unwrap();
    assert_eq!(
        refused("a folder"),
        "prompt file `prompts/daily_summary.md` not found"
    );
    fs::remove_dir(root.path(DAILY)).unwrap();
    root.write(DAILY, b"# Daily \xff\xfe summary for $day\n".as_slice());
    assert!(refused("bad UTF-8").contains("UTF-8"));
    root.write(DAILY, vec![b'x'; (promptic::hot::MAX_FILE + 1) as usize]);
    assert_eq!(
        refused("huge"),
        format!(
            "`prompts/daily_summary.md` is {} bytes, more than a reload reads ({})",
            promptic::hot::MAX_FILE + 1,
            promptic::hot::MAX_FILE
        )
    );
    root.write(DAILY, &original);
    fs::write(root.path("prompts/daily_summary.prompt"), "Other {{day}}").unwrap();
    assert_eq!(
        refused("a second file for the name"),
        "the prompt `daily_summary` has two files: `prompts/daily_summary.md` and `prompts/daily_summary.prompt`"
    );
    fs::remove_file(root.path("prompts/daily_summary.prompt")).unwrap();
    root.write(DAILY, "");
    refused("empty: the fields are unused");
    fs::remove_dir_all(root.path("prompts/templates")).unwrap();
    root.write(DAILY, &original);
    assert!(refused("no templates").contains("`$daily_preamble`"));
    fs::remove_dir_all(root.path("prompts")).unwrap();
    assert_eq!(
        refused("no folder"),
        "the prompts folder `prompts` does not exist"
    );
    fs::write(root.path("prompts"), "a file").unwrap();
    assert_eq!(
        refused("a file"),
        "the prompts folder `prompts` is not a folder"
    );
}

/// The folder rule holds for reloads: a template swapped for a link out of `prompts/`, a
/// FIFO or a device is refused, naming it, and the last good text keeps rendering.
#[cfg(unix)]
#[test]
fn a_reload_reads_nothing_outside_the_folder_and_no_special_file() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("links");
    let hot = root.daily();
    let identity = identity();
    let good = hot.render(&friday(None), &identity);
    let template = root.path("prompts/templates/daily_preamble.md");
    let outside = root.path("outside.md");
    fs::write(&outside, "SECRET-OUTSIDE $day").unwrap();
    fs::remove_file(&template).unwrap();
    std::os::unix::fs::symlink(&outside, &template).unwrap();
    let problems = hot.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        format!(
            "`prompts/templates/daily_preamble.md` is a link to `{}`, outside `prompts/`, so it is not read",
            outside.display()
        )
    );
    assert!(!problems.to_string().contains("SECRET"), "{problems}");
    assert_eq!(hot.render(&friday(None), &identity), good);
    // a FIFO does not block the reload
    fs::remove_file(&template).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&template).status();
    if made.is_ok_and(|s| s.success()) {
        let problems = hot.reload().unwrap_err();
        assert!(
            problems.0[0]
                .message()
                .contains("is not a file (a device, a pipe or a socket)"),
            "{problems}"
        );
        fs::remove_file(&template).unwrap();
    }
    // a link inside the folder is followed
    fs::write(root.path("prompts/preamble.txt"), "Inside preamble.").unwrap();
    std::os::unix::fs::symlink("../preamble.txt", &template).unwrap();
    assert_eq!(hot.reload(), Ok(true));
    assert!(
        hot.render(&friday(None), &identity)
            .text
            .starts_with("Inside preamble.")
    );
}

#[test]
fn a_broken_promptic_json_is_refused_and_its_identity_keys_are_the_schema() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("config");
    let hot = root.daily();
    let identity = identity();
    let config = root.read("prompts/promptic.json");
    root.write("prompts/promptic.json", "{\"identity\": {\"preferred\": ");
    assert!(hot.reload().is_err());
    root.write("prompts/promptic.json", &config);
    // A key the identity schema lacks is unknown; added to promptic.json, it is known.
    root.edit(DAILY, "two minutes", "two minutes, in $language");
    let problems = hot.reload().unwrap_err();
    assert_eq!(problems.0[0].message(), "unknown placeholder `$language`");
    root.edit(
        "prompts/promptic.json",
        "\"timezone\": \"America/Los_Angeles\",",
        "\"timezone\": \"America/Los_Angeles\",\n    \"language\": \"English\",",
    );
    assert_eq!(hot.reload(), Ok(true));
    assert!(hot.identity_keys().contains(&"language".to_owned()));
    assert!(!DailySummary::IDENTITY_KEYS.contains(&"language"));
    // An identity without the key renders it empty, as compiled prompts do.
    let out = hot.render(&friday(None), &identity);
    assert!(out.text.contains("two minutes, in ."), "{}", out.text);
    let with = Identity::from_json(&root.read("prompts/promptic.json")).unwrap();
    let keys = hot.identity_keys();
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    assert!(identity.check_keys(&keys).is_err());
    assert!(with.check_keys(&keys).is_ok());
    assert!(
        hot.render(&friday(None), &with)
            .text
            .contains("two minutes, in English.")
    );
}

#[test]
fn disabled_never_reads_the_disk() {
    let identity = identity();
    let compiled = friday(None).render(&identity);
    let nowhere = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hot-nowhere");
    let off = [
        HotPrompt::<DailySummary>::builder()
            .root(&nowhere)
            .enabled(false)
            .build(),
        // off by default
        HotPrompt::<DailySummary>::builder().root(&nowhere).build(),
        HotPrompt::<DailySummary>::builder().build(),
    ];
    for hot in off {
        assert!(!hot.is_enabled());
        assert_eq!(hot.reload(), Ok(false));
        assert_eq!(hot.reload_if_changed(), Ok(false));
        assert_eq!(hot.last_error(), None);
        assert_eq!(hot.render(&friday(None), &identity), compiled);
        assert_eq!(hot.version(), DailySummary::VERSION);
    }
    // Even with an edited folder right there.
    let root = Root::new("disabled");
    root.edit(DAILY, "two minutes", "one minute");
    let hot = HotPrompt::<DailySummary>::builder().root(&root.0).build();
    assert_eq!(hot.reload(), Ok(false));
    assert_eq!(hot.render(&friday(None), &identity), compiled);
    // On, it is on in a debug build only, unless allowed in release.
    let on = HotPrompt::<DailySummary>::builder()
        .root(&root.0)
        .enabled(true)
        .build();
    assert_eq!(on.is_enabled(), cfg!(debug_assertions));
    let forced = HotPrompt::<DailySummary>::builder()
        .root(&root.0)
        .enabled(true)
        .in_release(true)
        .build();
    assert!(forced.is_enabled());
    assert_eq!(forced.reload(), Ok(true));
}

#[test]
fn without_a_root_a_reload_says_so_once_per_change() {
    if !cfg!(debug_assertions) {
        return;
    }
    let hot = HotPrompt::<DailySummary>::builder().enabled(true).build();
    let problems = hot.reload_if_changed().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "cannot reload `prompts/daily_summary.md`: the hot prompt has no root folder"
    );
    assert_eq!(hot.reload_if_changed(), Ok(false));
    assert!(hot.reload().is_err());
    assert!(hot.last_error().is_some());
}

#[test]
fn reload_if_changed_reads_only_after_a_change_and_reports_a_failure_once() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("if-changed");
    let hot = root.daily();
    let identity = identity();
    // The first call reads; the files are as compiled.
    assert_eq!(hot.reload_if_changed(), Ok(false));
    assert!(!hot.is_reloaded());
    assert_eq!(hot.reload_if_changed(), Ok(false));

    root.edit(DAILY, "two minutes", "one minute");
    assert_eq!(hot.reload_if_changed(), Ok(true));
    assert!(
        hot.render(&friday(None), &identity)
            .text
            .contains("one minute")
    );
    assert_eq!(hot.reload_if_changed(), Ok(false));

    // A failure is reported by the call that sees the change, then not again.
    root.edit(DAILY, "one minute", "one $minute");
    assert!(hot.reload_if_changed().is_err());
    assert_eq!(hot.reload_if_changed(), Ok(false));
    assert!(hot.last_error().is_some());
    assert!(
        hot.render(&friday(None), &identity)
            .text
            .contains("one minute")
    );

    // A template edit is a change too.
    root.edit(DAILY, "one $minute", "one minute");
    assert_eq!(
        hot.reload_if_changed(),
        Ok(false),
        "the same text as before"
    );
    assert!(hot.last_error().is_none());
    root.edit(
        "prompts/templates/daily_preamble.md",
        "recorded on $day.",
        "written down on $day.",
    );
    assert_eq!(hot.reload_if_changed(), Ok(true));
    assert!(
        hot.render(&friday(None), &identity)
            .text
            .contains("written down on Friday")
    );

    // Unchanged time and length read as no change: nothing is read, nothing refused.
    let path = root.path(DAILY);
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    let text = root.read(DAILY).replacen("one minute", "one $mnute", 1);
    fs::write(&path, &text).unwrap();
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(before)
        .unwrap();
    assert_eq!(hot.reload_if_changed(), Ok(false));
    assert!(hot.last_error().is_none());
    // `reload` always reads.
    assert!(hot.reload().is_err());
}

#[test]
fn concurrent_renders_during_reloads_never_see_a_torn_state() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("concurrent");
    let hot = root.daily();
    let identity = identity();
    let original = root.read(DAILY);
    // Each version's title and body agree: a render that mixed two would show it.
    let version = |n: usize| {
        original
            .replace(
                "\"title\": \"Daily Summary\"",
                &format!("\"title\": \"v{n}\""),
            )
            .replace("# Daily Summary for $day", &format!("# v{n} for $day"))
    };
    let compiled = friday(None).render(&identity).text;
    let expected: Vec<String> = (0..3)
        .map(|n| compiled.replace("# Daily Summary for", &format!("# v{n} for")))
        .collect();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut renders = 0_usize;
                    let mut seen = std::collections::BTreeSet::new();
                    while !done.load(Ordering::Relaxed) || renders < 100 {
                        let out = hot.render(&friday(None), &identity);
                        seen.insert(out.metadata.title.clone());
                        match out.metadata.title.as_deref() {
                            Some("Daily Summary") => assert_eq!(out.text, compiled),
                            Some(title) => {
                                let n: usize = title[1..].parse().unwrap();
                                assert_eq!(out.text, expected[n]);
                            }
                            None => panic!("a render without a title"),
                        }
                        renders += 1;
                    }
                    (renders, seen.len())
                })
            })
            .collect();
        for i in 0..150 {
            let n = i % 3;
            if i % 10 == 9 {
                root.write(DAILY, version(n).replace("$day", "$dya"));
                assert!(hot.reload().is_err());
            } else {
                root.write(DAILY, version(n));
                hot.reload().unwrap();
            }
            if i % 2 == 0 {
                hot.reload_if_changed().unwrap();
            }
        }
        done.store(true, Ordering::Relaxed);
        for reader in readers {
            let (renders, versions) = reader.join().unwrap();
            assert!(renders >= 100);
            // the readers ran during the reloads, not only before or after them
            assert!(versions >= 2, "{versions} versions seen");
        }
    });
}

/// A `static`, named with `'static`, renders values that borrow for less.
static DAILY_HOT: LazyLock<HotPrompt<DailySummary<'static>>> =
    LazyLock::new(|| HotPrompt::<DailySummary>::builder().build());

#[test]
fn a_hot_prompt_is_send_sync_and_renders_borrowed_values() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<HotPrompt<DailySummary<'static>>>();
    send_sync::<HotChat<JournalChat<'static>>>();
    let day = String::from("Saturday");
    let out = DAILY_HOT.render(
        &DailySummary {
            day: &day,
            day_yyyymmdd: &day,
            facet: None,
        },
        &identity(),
    );
    assert!(out.text.contains("# Daily Summary for Saturday"));
}

#[test]
fn flags_and_choices_render_as_the_compiled_code_does() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("kinds");
    let identity = identity();
    let agent = "prompts/agents/journal_assistant.md";
    let hot = HotPrompt::<JournalAssistant>::builder()
        .root(&root.0)
        .enabled(true)
        .build();
    root.edit(agent, "## Verbose mode", "## Verbose mode ($verbose)");
    assert_eq!(hot.reload(), Ok(true));
    for verbose in [true, false] {
        let out = hot.render(
            &JournalAssistant {
                now: "9:40 AM",
                verbose,
            },
            &identity,
        );
        assert_eq!(out.text.contains("## Verbose mode (true)"), verbose);
        assert!(
            out.text
                .contains("It is now 9:40 AM (America/Los_Angeles).")
        );
        assert!(
            out.text.contains("cd \"$HOME/journal\""),
            "literals stay literal"
        );
    }
    // A flag is no choice.
    root.edit(agent, "{% if verbose %}", "{% if verbose == \"yes\" %}");
    assert!(hot.reload().is_err());

    let research = "prompts/research_answer.md";
    let hot = HotPrompt::<ResearchAnswer>::builder()
        .root(&root.0)
        .enabled(true)
        .build();
    let detailed = ResearchAnswer {
        guidance: Guidance::Detailed,
    };
    let lean = ResearchAnswer {
        guidance: Guidance::Lean,
    };
    root.edit(research, "Before you write:", "Before you answer:");
    assert_eq!(hot.reload(), Ok(true));
    assert!(
        hot.render(&detailed, &identity)
            .text
            .contains("Before you answer:")
    );
    assert_eq!(
        hot.render(&lean, &identity).text,
        lean.render(&identity).text
    );
    // Lines only lean renders are refused, as at build time; so is an unknown level.
    root.edit(
        research,
        "{% if guidance == \"detailed\" %}\n\nBefore",
        "{% if guidance == \"lean\" %}\n\nBefore",
    );
    let problems = hot.reload().unwrap_err();
    assert!(problems.0[0].message().contains("lean"), "{problems}");
    root.edit(
        research,
        "{% if guidance == \"lean\" %}\n\nBefore",
        "{% if guidance == \"verbose\" %}\n\nBefore",
    );
    assert!(hot.reload().is_err());
    // A per-request value in a static prompt is refused.
    root.edit(
        research,
        "{% if guidance == \"verbose\" %}\n\nBefore",
        "{% if guidance == \"detailed\" %}\n\n$preferred, before",
    );
    let problems = hot.reload().unwrap_err();
    assert!(
        problems.0[0].message().contains("used in a static prompt"),
        "{problems}"
    );
    assert!(
        hot.render(&detailed, &identity)
            .text
            .contains("Before you answer:")
    );
}

#[test]
fn chat_prompts_reload_their_messages_and_stay_chat_prompts() {
    if !cfg!(debug_assertions) {
        return;
    }
    let root = Root::new("chat");
    let identity = identity();
    let file = "prompts/journal_chat.md";
    let hot = HotChat::<JournalChat>::builder()
        .root(&root.0)
        .enabled(true)
        .build();
    let turns: Vec<Message> = (0..6)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(format!("q{i}"))
            } else {
                Message::assistant(format!("a{i}"))
            }
        })
        .collect();
    let context = JournalChat {
        day: "Friday",
        note: Some("call Ana"),
        turns: &turns,
        question: "What now?",
    };
    assert_eq!(hot.reload(), Ok(false));
    assert_eq!(
        hot.messages(&context, &identity),
        context.messages(&identity)
    );

    root.edit(
        file,
        "{% history turns limit=4 %}",
        "{% history turns limit=2 %}",
    );
    root.edit(file, "Today is $day.", "It is $Day.");
    assert_eq!(hot.reload(), Ok(true));
    let chat = hot.messages(&context, &identity);
    let shown: Vec<(&str, &str)> = chat
        .messages
        .iter()
        .map(|m| (&*m.section, m.content.as_text().unwrap_or_default()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "system_prompt",
                "You are the journal assistant of Jordan. Answer from what the journal holds, in a few sentences, and say so plainly when it holds nothing on the question."
            ),
            (
                "context",
                "It is Friday.\nA note from Jordan for today: \"call Ana\""
            ),
            ("turns", "q4"),
            ("turns", "a5"),
            ("question", "What now?"),
        ]
    );
    assert_eq!(chat.path, file);

    // A history field must stay a history; a chat prompt must stay one.
    root.edit(file, "{% history turns limit=2 %}", "$turns");
    assert!(hot.reload().is_err());
    root.write(
        file,
        "You are the assistant of $preferred. $day $question\n{% if note %}\n$note\n{% endif %}",
    );
    let problems = hot.reload().unwrap_err();
    let messages: Vec<&str> = problems.0.iter().map(|d| d.message()).collect();
    assert!(
        messages.contains(&"field `turns` of `JournalChat` is not used by prompts/journal_chat.md"),
        "{problems}"
    );
    assert_eq!(hot.messages(&context, &identity), chat);

    // A text prompt that grew sections is refused: the struct was compiled as text.
    let daily = root.daily();
    root.edit(DAILY, "## Structure", "{% user %}\n## Structure");
    let problems = daily.reload().unwrap_err();
    assert_eq!(
        problems.0[0].message(),
        "prompts/daily_summary.md has chat sections, but `DailySummary` was compiled as a text prompt"
    );
}

/// Derived Jinja prompts (`prompts/trip_planner.md.j2` and its include
/// `components/trip_rules.md.j2`) under `HotJinja`.
mod jinja {
    use super::{Root, first};
    use promptic::hot::HotJinja;
    use promptic::{Guidance, Prompt, PromptValue};

    #[derive(PromptValue)]
    struct Traveller<'a> {
        name: &'a str,
    }

    #[derive(PromptValue)]
    struct Stop<'a> {
        city: &'a str,
        nights: Option<u8>,
    }

    #[derive(Prompt)]
    #[prompt("trip_planner")]
    struct TripPlanner<'a> {
        guidance: Guidance,
        traveller: Traveller<'a>,
        stops: &'a [Stop<'a>],
        currency: Option<&'a str>,
    }

    const PLANNER: &str = "prompts/trip_planner.md.j2";
    const RULES: &str = "prompts/components/trip_rules.md.j2";
    const STOPS: [Stop<'static>; 2] = [
        Stop {
            city: "Ghent",
            nights: Some(3),
        },
        Stop {
            city: "Bruges",
            nights: None,
        },
    ];

    fn planner(guidance: Guidance, currency: Option<&'static str>) -> TripPlanner<'static> {
        TripPlanner {
            guidance,
            traveller: Traveller { name: "Noor" },
            stops: &STOPS,
            currency,
        }
    }

    fn hot(root: &Root) -> HotJinja<TripPlanner<'static>> {
        HotJinja::<TripPlanner>::builder()
            .root(&root.0)
            .enabled(true)
            .build()
    }

    fn text(hot: &HotJinja<TripPlanner<'static>>, p: &TripPlanner<'_>) -> String {
        hot.render(p).unwrap().text
    }

    #[test]
    fn unchanged_templates_render_the_compiled_prompt_and_an_edited_include_renders_at_once() {
        let root = Root::new("jinja-edit");
        let hot = hot(&root);
        let p = planner(Guidance::Detailed, Some("chf"));
        let compiled = p.render().unwrap().text;
        assert_eq!(text(&hot, &p), compiled);
        assert!(compiled.contains("- Prices in CHF.\n"), "{compiled}");
        // The files are the compiled ones: the compiled prompt keeps rendering.
        assert_eq!(hot.reload(), Ok(false));
        assert!(!hot.is_reloaded());

        root.edit(RULES, "- Prices in", "- Quote prices in");
        assert_eq!(hot.reload_if_changed(), Ok(true), "the include changed");
        assert!(hot.is_reloaded());
        let edited = text(&hot, &p);
        assert_eq!(edited, compiled.replace("- Prices in", "- Quote prices in"));
        assert_eq!(hot.reload_if_changed(), Ok(false), "nothing changed since");
        // The lean level of the same reloaded templates: the fence still works.
        let lean = text(&hot, &planner(Guidance::Lean, None));
        assert!(lean.contains("- Quote prices in EUR.\n"), "{lean}");
        assert!(!lean.contains("## How to plan"), "{lean}");

        // A cache breakpoint added by an edit falls where the comment is in the reloaded
        // render too.
        root.edit(
            PLANNER,
            "# Trip planner",
            "# Trip planner{# cache_breakpoint #}",
        );
        assert_eq!(hot.reload_if_changed(), Ok(true));
        let marked = hot.render(&p).unwrap();
        assert_eq!(marked.breakpoints, ["# Trip planner".len()]);
        root.edit(
            PLANNER,
            "# Trip planner{# cache_breakpoint #}",
            "# Trip planner",
        );

        // Back to the compiled texts: the compiled prompt renders again.
        root.edit(RULES, "- Quote prices in", "- Prices in");
        assert_eq!(hot.reload_if_changed(), Ok(true));
        assert!(!hot.is_reloaded());
        assert_eq!(text(&hot, &p), compiled);
    }

    #[test]
    fn a_new_include_a_new_field_read_and_the_jinja_options_are_reloaded() {
        let root = Root::new("jinja-include");
        let hot = hot(&root);
        let p = planner(Guidance::Detailed, None);
        let compiled = p.render().unwrap().text;
        assert!(compiled.ends_with('\n'), "keep_trailing_newline is on");

        // An include that does not exist yet is refused at its tag...
        root.edit(
            PLANNER,
            "{% include 'components/trip_rules.md.j2' %}",
            "{% include 'components/trip_rules.md.j2' %}\n{% include 'components/packing.md.j2' %}",
        );
        let problems = hot.reload_if_changed().unwrap_err();
        let (_, file, line, _) = first(&problems);
        assert_eq!((file.as_str(), line), (PLANNER, 5), "{problems}");
        assert_eq!(
            text(&hot, &p),
            compiled,
            "refused: the compiled prompt renders"
        );
        // ... and noticed when it appears, with a path into a field it reads.
        root.write(
            "prompts/components/packing.md.j2",
            "Pack for {{ stops | length }} stops, starting in {{ stops[0].city }}.\n",
        );
        assert_eq!(hot.reload_if_changed(), Ok(true));
        assert!(
            text(&hot, &p).contains("Pack for 2 stops, starting in Ghent.\n"),
            "{}",
            text(&hot, &p)
        );

        // `promptic.json`'s "jinja" options are read again too: without
        // `keep_trailing_newline`, each template loses its final newline (only the new
        // include's shows: the others end in a tag that `trim_blocks` trims after).
        let before = text(&hot, &p);
        root.edit(
            "prompts/promptic.json",
            "\"keep_trailing_newline\": true",
            "\"keep_trailing_newline\": false",
        );
        assert_eq!(hot.reload_if_changed(), Ok(true));
        assert_eq!(
            text(&hot, &p),
            before.replace("starting in Ghent.\n", "starting in Ghent.")
        );
    }

    /// Each edit is refused with the derive's located diagnostic, and the version before
    /// it keeps rendering.
    #[test]
    fn a_refused_edit_says_where_and_the_previous_version_keeps_rendering() {
        let root = Root::new("jinja-refused");
        let hot = hot(&root);
        let p = planner(Guidance::Detailed, Some("usd"));
        // A good edit first, so that "previous" is a reloaded version, not the compiled one.
        root.edit(PLANNER, "# Trip planner", "# Trip planner (draft)");
        assert_eq!(hot.reload(), Ok(true));
        let good = text(&hot, &p);
        assert!(good.starts_with("# Trip planner (draft)\n"), "{good}");
        let original_rules = root.read(RULES);
        let original_planner = root.read(PLANNER);

        // (file, from, to, message, help, where: file, line, col)
        type Case = (
            &'static str,
            &'static str,
            &'static str,
            &'static str,
            Option<&'static str>,
            (&'static str, usize, usize),
        );
        let cases: [Case; 6] = [
            (
                RULES,
                "{{ currency |",
                "{{ currnecy |",
                "`currnecy` is not a field of `TripPlanner`",
                Some("did you mean `currency`?"),
                (RULES, 4, 16),
            ),
            (
                PLANNER,
                "{{ stop.city }}",
                "{{ stop.ctiy }}",
                "no field `ctiy` in `Stop` (read as `stop.ctiy`)",
                Some("did you mean `city`?"),
                (PLANNER, 17, 24),
            ),
            (
                RULES,
                "{{ currency | default(\"EUR\") | upper }}",
                "{{ currency }}",
                "`currency` is an `Option` but is read here without a guard or a default",
                Some(
                    "put it inside `{% if currency %}`, write `currency | default(…)`, or make the field not an `Option`",
                ),
                (RULES, 4, 16),
            ),
            (
                RULES,
                "| upper }}",
                "| upper | titel }}",
                "the filter `titel` is not supported",
                None,
                (RULES, 4, 0),
            ),
            (
                RULES,
                "## Rules",
                "## Rules\n{% include 'trip_planner.md.j2' %}",
                "include cycle: trip_planner.md.j2 → components/trip_rules.md.j2 → trip_planner.md.j2",
                None,
                (RULES, 3, 1),
            ),
            (
                PLANNER,
                "{{ traveller.name | default(\"a traveller\") }}",
                "a traveller",
                "field `traveller` is not used by prompts/trip_planner.md.j2",
                Some("read it in the template (`{{ traveller }}`), or remove the field"),
                (PLANNER, 0, 0),
            ),
        ];
        for (file, from, to, message, help, (at_file, line, col)) in cases {
            root.edit(file, from, to);
            let problems = hot.reload().unwrap_err();
            let d = &problems.0[0];
            assert_eq!(d.message(), message, "{problems}");
            if let Some(help) = help {
                assert_eq!(d.help(), Some(help), "{problems}");
            }
            let at = d.location().expect("located");
            assert_eq!(at.path, at_file, "{problems}");
            assert_eq!(at.line, line, "{problems}");
            if col > 0 {
                assert_eq!(at.col, col, "{problems}");
            }
            assert!(problems.to_string().contains(&format!("--> {at_file}")));
            assert_eq!(hot.last_error(), Some(problems));
            assert!(hot.is_reloaded());
            assert_eq!(
                text(&hot, &p),
                good,
                "refused `{to}`: the previous version renders"
            );
            root.write(RULES, &original_rules);
            root.write(PLANNER, &original_planner);
        }
        assert_eq!(
            hot.reload(),
            Ok(false),
            "the good edit again: nothing changed"
        );
        assert_eq!(hot.last_error(), None);
    }

    /// A FIFO, a file over the limit and a link out of the folder in an include's place
    /// are refused by the one reader, without reading them (a FIFO without a writer would
    /// block forever).
    #[cfg(unix)]
    #[test]
    fn hostile_includes_are_refused_without_reading_them() {
        let root = Root::new("jinja-hostile");
        let hot = hot(&root);
        let p = planner(Guidance::Lean, None);
        let compiled = text(&hot, &p);
        let rules = root.path(RULES);

        std::fs::remove_file(&rules).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&rules).status();
        if made.is_ok_and(|m| m.success()) {
            let problems = hot.reload_if_changed().unwrap_err();
            assert_eq!(
                problems.0[0].message(),
                format!("`{RULES}` is a FIFO (named pipe), not a regular file, so it is not read"),
                "{problems}"
            );
            assert_eq!(text(&hot, &p), compiled);
            std::fs::remove_file(&rules).unwrap();
        }

        let huge = format!("{}\n", "x".repeat(5 * 1024 * 1024));
        std::fs::write(&rules, huge).unwrap();
        let problems = hot.reload_if_changed().unwrap_err();
        assert!(
            problems.0[0]
                .message()
                .starts_with(&format!("`{RULES}` is 5242881 bytes, more than")),
            "{problems}"
        );
        assert_eq!(text(&hot, &p), compiled);

        let outside = root.path("secret.md.j2");
        std::fs::write(&outside, "{{ currency }}").unwrap();
        std::fs::remove_file(&rules).unwrap();
        std::os::unix::fs::symlink(&outside, &rules).unwrap();
        let problems = hot.reload_if_changed().unwrap_err();
        assert_eq!(
            problems.0[0].message(),
            format!(
                "`{RULES}` is a link to `{}`, outside `prompts/`, so it is not read",
                outside.display()
            ),
            "{problems}"
        );
        assert_eq!(text(&hot, &p), compiled);
    }

    #[test]
    fn off_it_renders_the_compiled_prompt_and_reads_nothing() {
        let root = Root::new("jinja-off");
        let hot = HotJinja::<TripPlanner>::builder().root(&root.0).build();
        assert!(!hot.is_enabled());
        root.edit(RULES, "- Prices in", "- Quote prices in");
        assert_eq!(hot.reload(), Ok(false));
        assert_eq!(hot.reload_if_changed(), Ok(false));
        let p = planner(Guidance::Detailed, None);
        assert_eq!(text(&hot, &p), p.render().unwrap().text);
        assert!(!hot.is_reloaded());
        let no_root = HotJinja::<TripPlanner>::builder().enabled(true).build();
        if no_root.is_enabled() {
            let problems = no_root.reload().unwrap_err();
            assert_eq!(
                problems.0[0].message(),
                "cannot reload `prompts/trip_planner.md.j2`: the hot prompt has no root folder"
            );
        }
    }

    /// A second file for the prompt's name (`trip_planner.j2` beside `.md.j2`), as the
    /// derive refuses it: the reload is refused and the last good text keeps rendering.
    #[test]
    fn a_second_file_for_the_name_is_refused() {
        let root = Root::new("jinja-two-files");
        let hot = hot(&root);
        let p = planner(Guidance::Detailed, None);
        let compiled = p.render().unwrap().text;
        root.write("prompts/trip_planner.j2", "Other {{ traveller.name }}");
        let problems = hot.reload().unwrap_err();
        assert!(
            problems.0[0]
                .message()
                .starts_with("the prompt `trip_planner` has two files: `prompts/trip_planner.j2` and `prompts/trip_planner.md.j2`"),
            "{problems}"
        );
        assert_eq!(text(&hot, &p), compiled);
        std::fs::remove_file(root.path("prompts/trip_planner.j2")).unwrap();
        assert!(hot.reload().is_ok());
    }

    #[test]
    fn a_hot_jinja_prompt_is_send_and_sync() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<HotJinja<TripPlanner<'static>>>();
    }
}

/// Derived dotprompt prompts (`prompts/travel_agent.prompt` with its partial
/// `_persona.prompt`, `prompts/help_desk.prompt` with its cache breakpoint) under
/// `HotDotprompt`.
mod dotprompt {
    use super::{Root, first};
    use promptic::Prompt;
    use promptic::dotprompt::RenderedPrompt;
    use promptic::hot::HotDotprompt;

    #[derive(Prompt)]
    #[prompt("travel_agent")]
    struct Travel<'a> {
        traveller: &'a str,
        city: &'a str,
        nights: Option<u32>,
        interests: Option<Vec<&'a str>>,
    }

    #[derive(Prompt)]
    #[prompt("help_desk")]
    struct HelpDesk<'a> {
        plan: &'a str,
        vip: Option<bool>,
        question: &'a str,
    }

    const TRAVEL: &str = "prompts/travel_agent.prompt";
    const PERSONA: &str = "prompts/_persona.prompt";
    const DESK: &str = "prompts/help_desk.prompt";

    fn trip() -> Travel<'static> {
        Travel {
            traveller: "Noor",
            city: "Ghent",
            nights: Some(2),
            interests: Some(vec!["beer", "canals"]),
        }
    }

    fn hot<P: promptic::dotprompt::DotpromptPrompt>(root: &Root) -> HotDotprompt<P> {
        HotDotprompt::<P>::builder()
            .root(&root.0)
            .enabled(true)
            .build()
    }

    /// Every message as `role: text`.
    fn shown(rendered: &RenderedPrompt) -> String {
        rendered
            .messages
            .iter()
            .map(|m| {
                let parts: Vec<&str> = m.content.iter().filter_map(|p| p.text()).collect();
                format!("{}: {}", m.role, parts.concat())
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn unchanged_files_render_the_compiled_prompt_and_an_edited_partial_renders_at_once() {
        if !cfg!(debug_assertions) {
            return;
        }
        let root = Root::new("dotprompt-edit");
        let hot = hot::<Travel>(&root);
        let compiled = trip().render().unwrap();
        assert_eq!(hot.render(&trip()).unwrap(), compiled);
        assert_eq!(hot.reload(), Ok(false));
        assert!(!hot.is_reloaded());

        root.edit(PERSONA, "travel planner", "trip planner");
        assert_eq!(hot.reload_if_changed(), Ok(true), "the partial changed");
        assert!(hot.is_reloaded());
        let edited = hot.render(&trip()).unwrap();
        assert_eq!(
            shown(&edited),
            shown(&compiled).replace("travel planner", "trip planner")
        );
        // The metadata (model, schemas) is the reloaded file's, here the same.
        assert_eq!(edited.metadata, compiled.metadata);
        assert_eq!(hot.reload_if_changed(), Ok(false), "nothing changed since");

        root.edit(TRAVEL, "temperature: 0.4", "temperature: 0.9");
        assert_eq!(hot.reload_if_changed(), Ok(true));
        let warmer = hot.render(&trip()).unwrap();
        assert_eq!(
            warmer.metadata.config().and_then(|c| c.get("temperature")),
            Some(&promptic::dotprompt::Value::from(serde_json::json!(0.9)))
        );

        // Back to the compiled files: the compiled prompt renders again.
        root.edit(TRAVEL, "temperature: 0.9", "temperature: 0.4");
        root.edit(PERSONA, "trip planner", "travel planner");
        assert_eq!(hot.reload_if_changed(), Ok(true));
        assert!(!hot.is_reloaded());
        assert_eq!(hot.render(&trip()).unwrap(), compiled);
    }

    /// Each edit is refused with the derive's located diagnostic, and the version before
    /// it keeps rendering.
    #[test]
    fn a_refused_edit_says_where_and_the_previous_version_keeps_rendering() {
        if !cfg!(debug_assertions) {
            return;
        }
        let root = Root::new("dotprompt-refused");
        let hot = hot::<Travel>(&root);
        root.edit(PERSONA, "Answer with JSON only.", "Answer in JSON only.");
        assert_eq!(hot.reload(), Ok(true));
        let good = hot.render(&trip()).unwrap();
        assert!(
            shown(&good).contains("Answer in JSON only."),
            "{}",
            shown(&good)
        );
        let original = root.read(TRAVEL);

        type Case = (
            &'static str,
            &'static str,
            &'static str,
            Option<&'static str>,
            (usize, usize),
        );
        let cases: [Case; 4] = [
            (
                "in {{city}}",
                "in {{ctiy}}",
                "the template reads `ctiy`, which the input schema does not have",
                Some("did you mean `city`?"),
                (25, 67),
            ),
            (
                "    city: string\n",
                "    city: string\n    budget: number\n",
                "property `budget` is not a field of `Travel`",
                Some("add a field `budget` to `Travel`"),
                (10, 5),
            ),
            (
                "    nights?: integer",
                "    nights: integer",
                "property `nights` is required, but field `nights` of `Travel` is an `Option`",
                None,
                (10, 5),
            ),
            (
                "{{#if interests}}",
                "{{#iff interests}}",
                "unknown block helper `iff`",
                Some("did you mean `{{#if}}`?"),
                (26, 4),
            ),
        ];
        for (from, to, message, help, (line, col)) in cases {
            root.edit(TRAVEL, from, to);
            let problems = hot.reload().unwrap_err();
            let (got, file, at_line, at_col) = first(&problems);
            assert_eq!(got, message, "{problems}");
            if help.is_some() {
                assert_eq!(problems.0[0].help(), help, "{problems}");
            }
            assert_eq!(
                (file.as_str(), at_line, at_col),
                (TRAVEL, line, col),
                "{problems}"
            );
            assert!(
                problems
                    .to_string()
                    .contains(&format!("--> {TRAVEL}:{line}:{col}"))
            );
            assert_eq!(hot.last_error(), Some(problems));
            assert_eq!(hot.render(&trip()).unwrap(), good, "refused `{to}`");
            root.write(TRAVEL, &original);
        }
        assert_eq!(hot.reload(), Ok(false), "the good edit again");
        assert_eq!(hot.last_error(), None);
    }

    /// A file over the limit and a link out of the folder in a partial's place are
    /// refused by the one reader, without reading them.
    #[test]
    fn hostile_files_are_refused_without_reading_them() {
        let root = Root::new("dotprompt-hostile");
        let hot = hot::<Travel>(&root);
        let compiled = trip().render().unwrap();
        let huge = format!("{}\n", "x".repeat(5 * 1024 * 1024));
        std::fs::write(root.path(PERSONA), huge).unwrap();
        if !hot.is_enabled() {
            return;
        }
        let problems = hot.reload_if_changed().unwrap_err();
        assert!(
            problems.0[0]
                .message()
                .starts_with(&format!("`{PERSONA}` is 5242881 bytes, more than")),
            "{problems}"
        );
        assert_eq!(hot.render(&trip()).unwrap(), compiled);

        #[cfg(unix)]
        {
            let outside = root.path("secret.prompt");
            std::fs::write(&outside, "You are {{tone}}.").unwrap();
            std::fs::remove_file(root.path(PERSONA)).unwrap();
            std::os::unix::fs::symlink(&outside, root.path(PERSONA)).unwrap();
            let problems = hot.reload_if_changed().unwrap_err();
            assert_eq!(
                problems.0[0].message(),
                format!(
                    "`{PERSONA}` is a link to `{}`, outside `prompts/`, so it is not read",
                    outside.display()
                ),
                "{problems}"
            );
            assert_eq!(hot.render(&trip()).unwrap(), compiled);
        }
    }

    #[test]
    fn the_cache_breakpoint_moves_with_an_edit_before_it() {
        if !cfg!(debug_assertions) {
            return;
        }
        let root = Root::new("dotprompt-cache");
        let hot = hot::<HelpDesk>(&root);
        let desk = HelpDesk {
            plan: "Pro",
            vip: Some(true),
            question: "Why does it blink?",
        };
        let compiled = desk.render().unwrap();
        assert_eq!(compiled.breakpoints.len(), 1);
        root.edit(DESK, "and nothing else.", "and nothing else, ever.");
        assert_eq!(hot.reload(), Ok(true));
        let reloaded = hot.render(&desk).unwrap();
        assert_eq!(reloaded.breakpoints.len(), 1);
        assert_eq!(
            reloaded.breakpoints[0].message,
            compiled.breakpoints[0].message
        );
        assert_eq!(
            reloaded.breakpoints[0].offset,
            compiled.breakpoints[0].offset + ", ever".len()
        );
        // The text before it stays a cacheable prefix: a value there is refused.
        root.edit(DESK, "Quote the manual's", "Quote the {{plan}} manual's");
        let problems = hot.reload().unwrap_err();
        assert_eq!(first(&problems).1, DESK, "{problems}");
        assert_eq!(hot.render(&desk).unwrap(), reloaded);
    }

    #[test]
    fn a_hot_dotprompt_prompt_is_send_and_sync() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<HotDotprompt<Travel<'static>>>();
    }
}
