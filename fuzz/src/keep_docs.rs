//! Prompt families: keep's documents read with `Family::from_keep_docs`, the frontmatter
//! `"match"` rules of a prompts folder's members read with `family::read_match`, and the
//! selection (`select`, `choose`, `require`) over both, for tags from the input.
//!
//! Input: parts, each ended by a `0xFF` byte (never part of UTF-8 text):
//!
//! ```text
//! TAGS 0xFF ID \n DOC 0xFF ID \n DOC ...
//! ```
//!
//! `TAGS` is `key=value` tokens separated by white space (a token without `=` is a key
//! with an empty value); every further part is a document named by its first line. Each
//! document is read twice: as keep's document `ID`, and as a prompt file
//! `prompts/fam/ID.md` whose frontmatter `"match"` (a list of strings) gives its rules.
//! Parts that are not UTF-8 are read lossily.
//!
//! The frontmatter is read twice: by `family::read_match` (the reader `Project::family`
//! uses, which locates each rule in the file), and as a list of JSON strings through
//! `RuleLine::parse` and `Rules::parse_lines`; the two must agree.
//!
//! The same documents go through keep's other readers too: with document tags (each
//! document scoped by the next one's id), `select_for` without an item is `select`, and
//! with one it chooses a member whose scope matches or a candidate by rules; and each
//! document as an agent prompt, its includes naming the others, renders twice alike with
//! no run of three line breaks left.

use prompt_runtime::Tags;
use prompt_runtime::family::{Family, MATCH_KEY, Member, RuleLine, Rules, read_match};
use prompt_runtime::formats::keep::{AgentPrompt, expand_includes};
use prompt_runtime::load::PromptFile;

/// One input: reading never panics, and every selection is keep's: the chosen member's
/// rules hold (or it is the default), nothing more specific holds, ties go to the first
/// id, and the same tags choose the same member.
pub fn run(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0xFF).map(String::from_utf8_lossy);
    let tags_text = parts.next().unwrap_or_default();
    let docs: Vec<(String, String)> = parts
        .map(|part| match part.split_once('\n') {
            Some((id, doc)) => (id.to_owned(), doc.to_owned()),
            None => (part.into_owned(), String::new()),
        })
        .collect();

    let keep = Family::from_keep_docs(docs.iter().map(|(id, doc)| (id.clone(), doc)));
    assert_eq!(
        keep.members().len() + keep.skipped().len(),
        docs.len(),
        "every document is a member or skipped"
    );
    for line in docs.iter().flat_map(|(_, doc)| doc.lines()) {
        check_rule_text(line);
    }
    for member in keep.members() {
        for line in &member.rules.lines {
            // A line keep read shows as a rule the frontmatter accepts, the same rule.
            let shown = line.to_string();
            assert_eq!(
                RuleLine::parse(&shown).as_ref(),
                Ok(line),
                "a rule line shown as {shown:?} parses back"
            );
        }
    }

    check_doc_tags(&docs, &keep, &tags_text);
    check_agent_prompts(&docs);

    let members = frontmatter_members(&docs);
    let folder = Family::new("fam", members);

    let given: Tags = tags_text
        .split_whitespace()
        .map(|token| token.split_once('=').unwrap_or((token, "")))
        .collect();
    for family in [&keep, &folder] {
        check_order(family);
        for tags in tag_sets(family, &given) {
            check_selection(family, &tags);
        }
    }

    // The same documents in another order make the same family (when ids are unique:
    // of two members with one id, the first given stays first).
    let mut ids: Vec<&str> = docs.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() == docs.len() {
        let reversed = Family::from_keep_docs(docs.iter().rev().map(|(id, doc)| (id.clone(), doc)));
        assert!(reversed == keep, "the documents' order does not matter");
    }
}

/// The members of a prompts folder's family, each document a prompt file whose
/// frontmatter `"match"` gives its rules (no key: the default). Files that do not load,
/// and `"match"` values that are no list of strings or hold a malformed rule, are left
/// out, as `Project::family` refuses them.
fn frontmatter_members(docs: &[(String, String)]) -> Vec<Member> {
    let mut members = Vec::new();
    for (id, doc) in docs {
        let path = format!("prompts/fam/{id}.md");
        let file = match PromptFile::from_text(&path, doc) {
            Ok(file) => file,
            Err(diagnostics) => {
                let _ = diagnostics.to_string();
                continue;
            }
        };
        // The reader a prompts folder's family uses, which locates each rule in the file:
        // it must agree with reading the list as JSON strings below.
        let read = read_match(&file);
        if let Err(diagnostics) = &read {
            let _ = diagnostics.to_string();
        }
        let rules = match file.frontmatter.as_ref().and_then(|f| f.get(MATCH_KEY)) {
            None => {
                assert_eq!(
                    read.ok().map(|r| r.0),
                    Some(Rules::default()),
                    "no key, no rules"
                );
                Rules::default()
            }
            Some(entry) => {
                let Some(lines) = string_list(&entry.json) else {
                    assert!(
                        read.is_err(),
                        "a `match` that is no list of strings is refused"
                    );
                    continue;
                };
                if lines.is_empty() {
                    // An empty list would make a default that says it has rules.
                    assert!(read.is_err(), "an empty `match` is refused");
                    continue;
                }
                for line in &lines {
                    check_rule_text(line);
                }
                match Rules::parse_lines(lines.iter().map(String::as_str)) {
                    Ok(rules) => {
                        assert_eq!(rules.lines.len(), lines.len(), "one rule line per string");
                        assert_eq!(
                            read.as_ref().ok().map(|r| &r.0),
                            Some(&rules),
                            "read_match reads what the strings say"
                        );
                        rules
                    }
                    Err((at, error)) => {
                        assert!(read.is_err(), "read_match refuses a malformed rule");
                        assert!(at < lines.len(), "the failing line is one of the list");
                        assert_eq!(
                            RuleLine::parse(&lines[at]).err(),
                            Some(error),
                            "parse_lines fails where parse does"
                        );
                        assert!(
                            lines[..at].iter().all(|l| RuleLine::parse(l).is_ok()),
                            "parse_lines names the first malformed line"
                        );
                        continue;
                    }
                }
            }
        };
        members.push(Member {
            id: id.clone(),
            prompt: file.body_text().to_owned(),
            rules,
        });
    }
    members
}

/// A JSON list of strings, as the frontmatter writes `"match"`.
fn string_list(json: &str) -> Option<Vec<String>> {
    serde_json::from_str(json).ok()
}

/// `RuleLine::parse` agrees with keep's reading of a line (`RuleLine::keep`) and, on a
/// malformed rule, points inside it with a message and a help.
fn check_rule_text(text: &str) {
    let kept = RuleLine::keep(text);
    match RuleLine::parse(text) {
        Ok(line) => {
            assert_eq!(
                kept.as_ref(),
                Some(&line),
                "parse and keep agree on {text:?}"
            );
            assert!(!line.pairs.is_empty(), "a rule has a pair");
            for pair in &line.pairs {
                assert!(!pair.value.is_empty(), "a pair has a value");
                assert!(
                    !pair.value.contains(char::is_whitespace),
                    "a value has no white space"
                );
            }
        }
        Err(error) => {
            assert!(kept.is_none(), "keep reads {text:?}, which parse refuses");
            assert!(
                error.span.start <= error.span.end && error.span.end <= text.len(),
                "the span {:?} is inside {text:?}",
                error.span
            );
            assert!(
                text.is_char_boundary(error.span.start) && text.is_char_boundary(error.span.end),
                "the span {:?} is on character boundaries of {text:?}",
                error.span
            );
            assert!(!error.message.is_empty() && !error.help.is_empty());
        }
    }
}

/// Members are in id order.
fn check_order(family: &Family) {
    assert!(
        family.members().windows(2).all(|w| w[0].id <= w[1].id),
        "members in id order"
    );
}

/// The tags to choose for: the input's, none, each rule line's pairs, each line's pairs
/// with the input's, and every pair of every line at once.
fn tag_sets(family: &Family, given: &Tags) -> Vec<Tags> {
    let mut sets = vec![given.clone(), Tags::new()];
    let mut all = given.clone();
    for member in family.members().iter().take(16) {
        for line in member.rules.lines.iter().take(4) {
            let pairs = line.pairs.iter().map(|p| (p.key.clone(), p.value.clone()));
            sets.push(pairs.clone().collect());
            let mut with_given = given.clone();
            with_given.extend(pairs.clone());
            sets.push(with_given);
            all.extend(pairs);
        }
    }
    sets.push(all);
    sets
}

/// keep's selection, checked against the members one by one.
fn check_selection(family: &Family, tags: &Tags) {
    let choice = family.choose(tags);
    assert_eq!(
        family.select(tags),
        choice.map(|c| c.member),
        "select is choose's member"
    );
    assert_eq!(family.choose(tags), choice, "the same tags choose the same");
    let best = family
        .members()
        .iter()
        .filter_map(|m| m.rules.specificity(tags))
        .max();
    match choice {
        None => {
            assert!(
                best.is_none(),
                "nothing chosen while a member holds for {tags}"
            );
            assert!(
                family.default_member().is_none(),
                "the default is always a candidate"
            );
            let error = family
                .require(tags)
                .expect_err("require fails when select finds nothing");
            assert_eq!(error.candidates.len(), family.members().len());
            let _ = error.to_string();
        }
        Some(choice) => {
            let member = choice.member;
            assert_eq!(
                member.rules.specificity(tags),
                Some(choice.specificity),
                "the chosen member's specificity"
            );
            match choice.line {
                None => assert!(member.rules.is_default(), "no line: the default"),
                Some(line) => {
                    assert!(line.holds(tags), "the chosen line {line} holds for {tags}");
                    assert_eq!(
                        member.rules.first_holding(tags).map(|(_, l)| l),
                        Some(line),
                        "the first line that holds decides"
                    );
                }
            }
            assert_eq!(
                best,
                Some(choice.specificity),
                "nothing more specific holds"
            );
            let first = family
                .members()
                .iter()
                .find(|m| m.rules.specificity(tags) == best)
                .expect("the best is some member's");
            assert!(std::ptr::eq(first, member), "a tie goes to the first id");
            assert_eq!(family.require(tags).ok(), Some(member), "require agrees");
        }
    }
}

/// Each document scoped by the next one's id, chosen for an item named by the tags' text.
fn check_doc_tags(docs: &[(String, String)], keep: &Family, item: &str) {
    let with_tags = docs.iter().enumerate().map(|(i, (id, doc))| {
        let scope = docs.get(i + 1).map_or("", |(next, _)| next.as_str());
        let tags: Tags = [("scope", scope)].into_iter().collect();
        (id.clone(), doc.clone(), tags)
    });
    let Ok(scoped) = Family::from_keep_docs_with_tags(with_tags) else {
        panic!("no `_when` tag was given, so nothing is refused");
    };
    assert_eq!(
        scoped.members(),
        keep.members(),
        "the tags change no member"
    );
    let tags = Tags::new();
    let unscoped = scoped
        .members()
        .iter()
        .zip(scoped.scopes())
        .filter(|(_, s)| s.is_none())
        .map(|(m, _)| m.clone())
        .collect::<Vec<_>>();
    let plain = Family::new("", unscoped);
    assert_eq!(
        scoped.select_for(&tags, None).map(|m| &m.id),
        plain.select(&tags).map(|m| &m.id),
        "without an item, scoped members are out"
    );
    if let Some(choice) = scoped.choose_for(&tags, Some(item)) {
        let i = scoped
            .members()
            .iter()
            .position(|m| std::ptr::eq(m, choice.member))
            .expect("the chosen is a member");
        if let Some(scope) = &scoped.scopes()[i] {
            let plain_len = scope.chars().filter(|c| !matches!(c, '*' | '?')).count();
            assert_eq!(choice.specificity, plain_len, "a scope's specificity");
            assert!(!item.is_empty(), "a scope needs an item");
        }
    }
}

/// Each document as an agent prompt; its includes name the other documents.
fn check_agent_prompts(docs: &[(String, String)]) {
    for (id, doc) in docs.iter().take(8) {
        let lookup = |name: &str| {
            docs.iter()
                .find(|(other, _)| other == name)
                .map(|(_, d)| d.clone())
        };
        let template = match expand_includes(&format!(".prompt/{id}"), doc, lookup) {
            Ok(t) => t,
            Err(e) => {
                let _ = e.to_string();
                continue;
            }
        };
        let prompt = AgentPrompt::parse(&template);
        let value =
            |name: &str, args: &[&str]| name.len().is_multiple_of(2).then(|| args.join("\n\n\n"));
        let once = prompt.render(value);
        assert_eq!(
            prompt.render(value),
            once,
            "rendering is a function of the values"
        );
        assert!(
            !once.contains("\n\n\n"),
            "no run of three line breaks is left"
        );
        let _ = prompt.check("fuzz", &["text"]);
    }
}
