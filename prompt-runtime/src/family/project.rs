//! The families of a prompts folder: `prompts/FAMILY/*.md`, rules in each frontmatter.
//!
//! A folder is a family when the derive names it or when one of its prompts has a
//! `"match"` key; other folders stay plain namespaces of prompts (`agents/helper`). A
//! family's members are the prompts directly in its folder, not in its subfolders.

use super::check::{self, Written};
use super::{Family, Member, declares_rules, match_key};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::{Project, PromptFile};
use std::path::{Component, Path};

/// The folder a prompt is directly in (`summarize` for `summarize/default`).
fn folder_of(name: &str) -> Option<&str> {
    name.rsplit_once('/').map(|(folder, _)| folder)
}

impl Project {
    /// The folders that are families: those with a prompt whose frontmatter has a
    /// `"match"` key, sorted. Prompts that cannot be read are passed over here
    /// (`promptic check` reports them).
    ///
    /// ```no_run
    /// use promptic::load::Project;
    ///
    /// let project = Project::open("prompts".as_ref(), "prompts")?;
    /// assert_eq!(project.families(), ["summarize"]);
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn families(&self) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        for name in &self.prompts().names {
            let Some(folder) = folder_of(name) else {
                continue;
            };
            if found.last().is_some_and(|f| f == folder) || found.iter().any(|f| f == folder) {
                continue;
            }
            if self.load_prompt(name).is_ok_and(|f| declares_rules(&f)) {
                found.push(folder.to_owned());
            }
        }
        found.sort();
        found
    }

    /// Reads family `name`: the prompts directly in `prompts/NAME/`, each with the rules
    /// of its frontmatter `"match"` and its `"scope"` (keep's glob over the item's id;
    /// see [`Family::select_for`]), checked: rules well formed, a default member (of
    /// several, the first by id is the fallback), no two members with the same rules.
    /// Scoped members are chosen by their scope and are left out of those checks. Every
    /// problem is reported.
    ///
    /// The selection is the one [`Family::select`] documents, and the one the derive
    /// generates, so a family chooses the same member at compile time and at run time.
    ///
    /// ```no_run
    /// use promptic::load::Project;
    /// use promptic::Tags;
    ///
    /// let project = Project::open("prompts".as_ref(), "prompts")?;
    /// let family = project.family("summarize")?;
    /// let tags: Tags = [("type", "meeting")].into_iter().collect();
    /// let member = family.select(&tags).expect("a checked family has a default");
    /// let prompt = project.check_inferred(&member.id)?;
    /// # Ok::<(), promptic::Diagnostics>(())
    /// ```
    pub fn family(&self, name: &str) -> Result<Family, Diagnostics> {
        // `summarize/` names the folder as much as `summarize` does.
        let name = match name.strip_suffix('/') {
            Some(bare) if !bare.is_empty() => bare,
            _ => name,
        };
        let folder = format!("{}/{name}", self.display);
        let relative = Path::new(name);
        let escapes = name.is_empty()
            || relative.is_absolute()
            || name.contains('\\')
            || relative
                .components()
                .any(|c| !matches!(c, Component::Normal(_)));
        if escapes {
            return Err(Diagnostic::new(format!(
                "family name `{name}` must stay inside `{}/`",
                self.display
            ))
            .with_help("name the family by its folder under the prompts folder, without `.`, `..` or a leading `/` (`summarize`)")
            .into());
        }
        if relative.starts_with(&self.config.templates) {
            return Err(Diagnostic::new(format!(
                "`{folder}/` is the templates folder, not a family"
            ))
            .with_help("put the family's prompts in a folder of their own (`prompts/summarize/`)")
            .into());
        }
        // A family folder linked out of the prompts folder is refused by name.
        let dir = self.root().folder(name).map_err(crate::Diagnostics::from)?;
        let names = self.prompts().names;
        if dir.is_none() {
            let mut d = Diagnostic::new(format!("family folder `{folder}/` not found"));
            let mut folders: Vec<&str> = names.iter().filter_map(|n| folder_of(n)).collect();
            folders.dedup();
            d = if self.dir.join(format!("{name}.md")).is_file() {
                d.with_help(format!(
                    "`{folder}.md` is a prompt, not a family: name it with `#[prompt(\"{name}\")]`"
                ))
            } else if let Some(s) = crate::suggest::closest(name, folders.iter().copied()) {
                d.with_help(format!("did you mean `{s}`?"))
            } else {
                d.with_help(format!(
                    "create `{folder}/` with a prompt file per member, one of them without `\"match\"` (the default)"
                ))
            };
            return Err(d.into());
        }
        let mut problems = Diagnostics::default();
        let mut files: Vec<(String, PromptFile)> = Vec::new();
        for id in names.iter().filter(|n| folder_of(n) == Some(name)) {
            match self.load_prompt(id) {
                Ok(file) => files.push((id.clone(), file)),
                Err(e) => problems.extend(e),
            }
        }
        if files.is_empty() && problems.is_empty() {
            return Err(Diagnostic::new(format!("family folder `{folder}/` holds no prompts"))
                .in_file(format!("{folder}/"))
                .with_help(format!(
                    "add a `.md` file per member to `{folder}/`, one of them without `\"match\"` (the default)"
                ))
                .into());
        }
        let mut members = Vec::new();
        let mut spans = Vec::new();
        let mut scopes = Vec::new();
        for (id, file) in &files {
            if let Err(e) = super::scope_key::refuse_condition(file) {
                problems.extend(e);
                continue;
            }
            let scope = match super::read_scope(file) {
                Ok(scope) => scope,
                Err(e) => {
                    problems.extend(e);
                    continue;
                }
            };
            match match_key::read_match(file) {
                Ok((rules, at)) => {
                    members.push(Member {
                        id: id.clone(),
                        prompt: file.body_text().to_owned(),
                        rules,
                    });
                    spans.push((file, at));
                    scopes.push(scope);
                }
                Err(e) => problems.extend(e),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        // `names` is sorted, so the members are in id order already. A scoped member is
        // chosen by its scope, not its rules: the checks are of the others. A family of
        // scoped members only may choose nothing without an item, as keep's does.
        let written: Vec<Written<'_>> = members
            .iter()
            .zip(&spans)
            .zip(&scopes)
            .filter(|(_, scope)| scope.is_none())
            .map(|((member, (file, at)), _)| Written {
                member,
                source: &file.source,
                rules_at: at.clone(),
            })
            .collect();
        if !written.is_empty() {
            problems.extend(check::problems(name, &folder, &written));
        }
        let mut family = Family::new(name, members);
        if scopes.iter().any(Option::is_some) {
            family.scopes = scopes;
        }
        problems.into_result(family)
    }
}

impl Project {
    /// Warnings about family `family`'s members: a line of a member's prompt that keep
    /// would read as a match rule (keep reads rule lines from the whole document, its
    /// `## Prompt` section included), so the member would not be chosen as written if it
    /// went back to keep. Members that cannot be read are passed over (`family` reports
    /// them).
    pub fn family_warnings(&self, family: &Family) -> Vec<Diagnostic> {
        let mut found = Vec::new();
        for member in family.members() {
            let Ok(file) = self.load_prompt(&member.id) else {
                continue;
            };
            let mut at = file.body.start;
            for line in file.body_text().split('\n') {
                let span = at..at + line.len();
                at = span.end + 1;
                let Some(rule) = crate::formats::keep::rule_line(line) else {
                    continue;
                };
                found.push(
                    Diagnostic::new(format!(
                        "line `{}` of `{}`'s prompt reads as a match rule to keep",
                        line.trim(),
                        member.id
                    ))
                    .at(&file.source, span)
                    .with_help(format!(
                        "keep reads rule lines from the whole document, its `## Prompt` section included, so there this member would also match `{rule}`: write rules in `\"match\"`, and word prompt text so that not every word is `key=value` (`Format: markdown`)"
                    )),
                );
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::Tags;
    use crate::load::Project;
    use std::path::PathBuf;

    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str, files: &[(&str, &str)]) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("promptic-family-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            for (path, text) in files {
                let path = dir.join("prompts").join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Scratch(dir)
        }
        fn open(&self) -> Project {
            Project::open(&self.0.join("prompts"), "prompts").unwrap()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn rules(r: &str) -> String {
        format!("{{\n\"match\": [{r}]\n}}\n\nBody")
    }

    #[test]
    fn a_folder_with_rules_is_a_family_and_selects_like_keep() {
        let s = Scratch::new(
            "select",
            &[
                ("summarize/default.md", "Summarize $text."),
                ("summarize/meeting.md", &rules("\"type=meeting\"")),
                (
                    "summarize/myapp.md",
                    &rules("\"type=meeting project=myapp\""),
                ),
                ("summarize/deeper/not_a_member.md", "x"),
                ("agents/helper.md", "Help."),
                ("plain.md", "Plain."),
            ],
        );
        let project = s.open();
        assert_eq!(project.families(), ["summarize"]);
        let family = project.family("summarize").unwrap();
        let ids: Vec<&str> = family.members().iter().map(|m| m.id.as_str()).collect();
        assert_eq!(
            ids,
            ["summarize/default", "summarize/meeting", "summarize/myapp"]
        );
        assert_eq!(family.members()[0].prompt, "Summarize $text.");
        let pick = |pairs: &[(&str, &str)]| {
            let tags: Tags = pairs.iter().copied().collect();
            family.select(&tags).unwrap().id.clone()
        };
        assert_eq!(
            pick(&[("type", "meeting"), ("project", "myapp")]),
            "summarize/myapp"
        );
        assert_eq!(pick(&[("type", "meeting")]), "summarize/meeting");
        assert_eq!(pick(&[]), "summarize/default");
        // a folder without rules is a family only when named
        assert_eq!(project.family("agents").unwrap().members().len(), 1);
        assert_eq!(project.family("summarize/").unwrap(), family);
    }

    #[test]
    fn no_default_and_duplicate_rules_are_errors_but_several_defaults_are_not() {
        let s = Scratch::new(
            "errors",
            &[
                ("a/one.md", &rules("\"type=x\"")),
                ("a/two.md", &rules("\"type=y\"")),
                ("b/one.md", "One."),
                ("b/two.md", "Two."),
                ("c/default.md", "D."),
                ("c/one.md", &rules("\"type=x project=p\"")),
                ("c/two.md", &rules("\"project=p  type=x\"")),
            ],
        );
        let project = s.open();
        let e = project.family("a").unwrap_err();
        assert_eq!(e.0[0].message(), "family `a` has no default member");
        assert_eq!(
            e.0[0].help(),
            Some(
                "add a prompt without `\"match\"` to `prompts/a/` (`prompts/a/default.md`): it is chosen when no member's rules hold, so a prompt is always chosen"
            )
        );
        // keep's `analyze/default` and `analyze/incremental`: the first by id is the
        // fallback, the other is taken by id
        let b = project.family("b").unwrap();
        assert_eq!(b.select(&Tags::new()).unwrap().id, "b/one");
        assert_eq!(b.member("two").unwrap().prompt, "Two.");
        assert_eq!(b.member("b/two").unwrap().id, "b/two");
        let e = project.family("c").unwrap_err();
        assert_eq!(
            e.0[0].message(),
            "`c/two` has the same match rules as `c/one`, so it is never chosen"
        );
        assert_eq!(e.0[0].location().unwrap().line, 2);
    }

    #[test]
    fn scoped_members_are_chosen_by_the_items_id_and_left_out_of_the_checks() {
        let s = Scratch::new(
            "scoped",
            &[
                ("sn/default.md", "{\n\"scope\": \"*\"\n}\n\nFacts."),
                ("sn/email.md", "{\n\"scope\": \"*@*.*\"\n}\n\nContact."),
                ("sn/url.md", "{\n\"scope\": \"http*://*\"\n}\n\nPage."),
                ("bad/a.md", "{\n\"scope\": 3\n}\n\nA."),
            ],
        );
        let project = s.open();
        assert_eq!(project.families(), ["bad", "sn"]);
        let sn = project.family("sn").unwrap();
        let pick = |id: Option<&str>| sn.select_for(&Tags::new(), id).map(|m| m.id.clone());
        assert_eq!(pick(Some("bo@example.com")).as_deref(), Some("sn/email"));
        assert_eq!(
            pick(Some("https://example.com/")).as_deref(),
            Some("sn/url")
        );
        assert_eq!(pick(Some("note")).as_deref(), Some("sn/default"));
        // as in keep, scoped members need an item
        assert_eq!(pick(None), None);
        let e = project.family("bad").unwrap_err();
        assert!(
            e.0[0]
                .message()
                .starts_with("frontmatter key `scope` must be a string"),
            "{e}"
        );
    }

    #[test]
    fn a_rule_shaped_line_in_a_members_prompt_is_a_warning() {
        let s = Scratch::new(
            "warn",
            &[
                (
                    "w/default.md",
                    "Summarize.\nformat=markdown\nSee type=x docs.\n",
                ),
                ("w/x.md", &rules("\"type=x\"")),
            ],
        );
        let project = s.open();
        let family = project.family("w").unwrap();
        let warnings = project.family_warnings(&family);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(
            warnings[0].message(),
            "line `format=markdown` of `w/default`'s prompt reads as a match rule to keep"
        );
        assert_eq!(warnings[0].location().unwrap().line, 2);
    }

    #[test]
    fn a_missing_or_misnamed_family_says_what_it_is() {
        let s = Scratch::new(
            "missing",
            &[
                ("summarize/default.md", "D."),
                ("plain.md", "P."),
                ("templates/t.md", "T."),
            ],
        );
        let project = s.open();
        let e = project.family("sumarize").unwrap_err();
        assert_eq!(
            e.0[0].message(),
            "family folder `prompts/sumarize/` not found"
        );
        assert_eq!(e.0[0].help(), Some("did you mean `summarize`?"));
        let e = project.family("plain").unwrap_err();
        assert_eq!(
            e.0[0].help(),
            Some(
                "`prompts/plain.md` is a prompt, not a family: name it with `#[prompt(\"plain\")]`"
            )
        );
        for name in ["../x", "", "/etc"] {
            let e = project.family(name).unwrap_err();
            assert!(e.0[0].message().contains("must stay inside"), "{name}: {e}");
        }
        let e = project.family("templates").unwrap_err();
        assert!(e.0[0].message().contains("templates folder"), "{e}");
    }

    #[test]
    fn a_malformed_rule_is_reported_with_the_others() {
        let s = Scratch::new(
            "malformed",
            &[
                ("f/default.md", "D."),
                ("f/paper.md", &rules("\"type = paper\"")),
                ("f/other.md", &rules("\"kind\"")),
            ],
        );
        let e = s.open().family("f").unwrap_err();
        let messages: Vec<&str> = e.0.iter().map(|d| d.message()).collect();
        assert_eq!(
            messages,
            [
                "`kind` in match rule `kind` is not a `key=value` pair",
                "malformed match rule `type = paper`"
            ]
        );
    }
}
