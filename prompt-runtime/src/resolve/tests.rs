use super::*;
use crate::parse::ParseOptions;
use crate::parse::PromptFile;

fn schema() -> Schema {
    Schema {
        context: vec![
            ContextVar::new("day", VarKind::Text),
            ContextVar::new("day_YYYYMMDD", VarKind::Text),
            ContextVar::new("note", VarKind::Optional),
            ContextVar::new("verbose", VarKind::Flag),
            ContextVar::new(
                "level",
                VarKind::Choice(vec!["lean".into(), "detailed".into()]),
            ),
        ],
        identity: vec!["name".into(), "preferred".into(), "pronouns_subject".into()],
        literals: vec!["HOME".into()],
        missing_hint: None,
    }
}

fn templates(list: &[(&str, &str)]) -> Templates {
    let mut t = Templates::new();
    for (name, text) in list {
        let file = PromptFile::from_text(&format!("prompts/templates/{name}.md"), text).unwrap();
        t.insert(*name, file);
    }
    t
}

fn run(text: &str, templates: &Templates) -> Result<Resolved, Diagnostics> {
    let file = PromptFile::from_text("prompts/p.md", text).unwrap();
    let (nodes, d) = parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    assert!(d.is_empty(), "{d}");
    resolve(&file.source, &nodes, &schema(), templates)
}

fn errors(text: &str, templates: &Templates) -> Vec<Diagnostic> {
    run(text, templates).unwrap_err().0
}

#[test]
fn binds_context_identity_variants_literals() {
    let r = run(
        "$day\n{% if level == \"lean\" %}\n$note\n{% endif %}",
        &Templates::new(),
    );
    let err = r.unwrap_err();
    // `$note` inside an `if level` block is not guarded by its own test
    assert_eq!(err.0.len(), 1, "{err}");
    assert!(err.0[0].message().contains("`$note` is optional"));

    let r = run(
        "$day $Day_yyyymmdd $Preferred $Pronouns_subject $HOME $$",
        &Templates::new(),
    )
    .unwrap();
    assert_eq!(
        r.parts,
        [
            Part::Context {
                index: 0,
                upper: false
            },
            Part::Text(" ".into()),
            Part::Context {
                index: 1,
                upper: true
            },
            Part::Text(" ".into()),
            Part::Identity {
                key: "preferred".into(),
                lookup: "Preferred".into(),
                slot: Slot::of("Preferred")
            },
            Part::Text(" ".into()),
            Part::Identity {
                key: "pronouns_subject".into(),
                lookup: "Pronouns_subject".into(),
                slot: Slot::of("Pronouns_subject")
            },
            Part::Text(" $HOME $".into()),
        ]
    );
    assert_eq!(r.unused, [2, 3, 4]);
    assert_eq!(r.identity_keys(), ["preferred", "pronouns_subject"]);
    let sources: Vec<_> = r
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.source))
        .collect();
    assert_eq!(sources[0], ("day", VarSource::Context));
    assert_eq!(sources[4], ("HOME", VarSource::Literal));
}

#[test]
fn context_wins_over_identity_wins_over_template() {
    let mut s = schema();
    s.context.push(ContextVar::new("name", VarKind::Text));
    let t = templates(&[("name", "T"), ("preferred", "T")]);
    let file = PromptFile::from_text("p.md", "$name $preferred").unwrap();
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    let r = resolve(&file.source, &nodes, &s, &t).unwrap();
    assert_eq!(
        r.parts[0],
        Part::Context {
            index: 5,
            upper: false
        }
    );
    assert!(matches!(r.parts[2], Part::Identity { .. }));
}

#[test]
fn a_misspelt_name_is_one_error_and_its_value_is_not_unused() {
    let text = "$dya, then $dya again\n{% if dya %}\nx\n{% endif %}";
    let e = errors(text, &Templates::new());
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].help(), Some("did you mean `$day`?"));
    assert_eq!(
        e[0].notes(),
        ["also written at prompts/p.md:1:12, prompts/p.md:2:7"]
    );
    let file = PromptFile::from_text("p.md", "$dya $zzzzzz").unwrap();
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    let unused = crate::resolve::unused(&file.source, &nodes, &schema(), &Templates::new());
    let s = schema();
    let names: Vec<&str> = unused.iter().map(|&i| s.context[i].name.as_str()).collect();
    assert!(
        !names.contains(&"day") && names.contains(&"note"),
        "{names:?}"
    );
}

#[test]
fn past_the_errors_kept_per_kind_a_repeated_name_notes_nothing_else() {
    let text: String = (0..60).map(|i| format!("$zq{i} $zq{i}\n")).collect();
    let e = errors(&text, &Templates::new());
    assert_eq!(e.len(), Diagnostics::PER_KIND + 1, "{e:?}");
    for (line, d) in e[..Diagnostics::PER_KIND].iter().enumerate() {
        let at = 5 + format!("{line}").len();
        let note = format!("also written at prompts/p.md:{}:{at}", line + 1);
        assert_eq!(d.notes(), [note.as_str()], "{d}");
    }
    assert!(e[Diagnostics::PER_KIND].notes().is_empty());
}

#[test]
fn an_optional_value_used_outside_its_guard_is_one_error_noting_the_other_places() {
    let e = errors("$note\nand $note, $note\n$note", &Templates::new());
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        e[0].notes(),
        [
            "also used outside `{% if note %}` at prompts/p.md:2:5, prompts/p.md:2:12, prompts/p.md:3:1"
        ]
    );
    let e = errors(&"$note ".repeat(10_000), &Templates::new());
    assert_eq!(e.len(), 1);
    assert!(
        e[0].notes()[0].ends_with(", prompts/p.md:1:31 and 9994 more"),
        "{e:?}"
    );
}

#[test]
fn unknown_placeholder_suggests_the_closest_name() {
    let e = errors("Hi $preferd", &Templates::new());
    assert_eq!(e[0].message(), "unknown placeholder `$preferd`");
    assert_eq!(e[0].help(), Some("did you mean `$preferred`?"));
    let loc = e[0].location().unwrap();
    assert_eq!((loc.line, loc.col), (1, 4));
    let e = errors("Hi $zzzzzz", &Templates::new());
    assert!(
        e[0].help()
            .unwrap()
            .contains("context variable, an identity key")
    );
}

#[test]
fn templates_are_inlined_recursively() {
    let t = templates(&[("outer", "[$inner by $preferred]"), ("inner", "in $day")]);
    let r = run("A $outer B", &t).unwrap();
    assert_eq!(
        r.parts,
        [
            Part::Text("A [in ".into()),
            Part::Context {
                index: 0,
                upper: false
            },
            Part::Text(" by ".into()),
            Part::Identity {
                key: "preferred".into(),
                lookup: "preferred".into(),
                slot: Slot::of("preferred")
            },
            Part::Text("] B".into()),
        ]
    );
    let day = r.variables.iter().find(|v| v.name == "day").unwrap();
    assert_eq!(day.uses[0].path, "prompts/templates/inner.md");
}

#[test]
fn template_cycle_prints_the_cycle() {
    let t = templates(&[("a", "x $b"), ("b", "y $a")]);
    let e = errors("$a", &t);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].message(), "template cycle: a -> b -> a");
    assert_eq!(e[0].location().unwrap().path, "prompts/templates/b.md");
    let t = templates(&[("self_ref", "x $self_ref")]);
    assert_eq!(
        errors("$self_ref", &t)[0].message(),
        "template cycle: self_ref -> self_ref"
    );
}

#[test]
fn template_problems_are_reported_in_the_template_file_once() {
    let t = templates(&[("pre", "Day: $dya\n{% endif %}")]);
    let e = errors("$pre\n$pre", &t);
    assert_eq!(e.len(), 2, "{:?}", e);
    assert!(
        e.iter()
            .all(|d| d.location().unwrap().path == "prompts/templates/pre.md")
    );
}

#[test]
fn optional_must_be_guarded() {
    run("{% if note %}\nNote: $note\n{% endif %}", &Templates::new()).unwrap();
    let r = run(
        "{% if note %}\nNote: $note\n{% else %}\nnone\n{% endif %}",
        &Templates::new(),
    )
    .unwrap();
    assert!(matches!(
        &r.parts[0],
        Part::If {
            test: Test::Set(2),
            ..
        }
    ));
    let e = errors(
        "{% if note %}\nok\n{% else %}\n$note\n{% endif %}",
        &Templates::new(),
    );
    assert!(
        e[0].message().contains("used outside `{% if note %}`"),
        "{}",
        e[0]
    );
    assert_eq!(e[0].location().unwrap().line, 4);
}

#[test]
fn optional_guard_reaches_into_templates() {
    let t = templates(&[("with_note", "Note: $Note")]);
    assert!(run("{% if note %}\n$with_note\n{% endif %}", &t).is_ok());
    let e = errors("$with_note", &t);
    assert_eq!(
        e[0].location().unwrap().path,
        "prompts/templates/with_note.md"
    );
}

#[test]
fn conditions_are_checked() {
    let e = errors(
        "{% if level == \"leen\" %}\nx\n{% endif %}",
        &Templates::new(),
    );
    assert_eq!(
        e[0].message(),
        "\"leen\" is not one of the choices of `level`"
    );
    assert_eq!(
        e[0].help(),
        Some("did you mean \"lean\"? the choices are \"lean\", \"detailed\"")
    );
    let e = errors("{% if day %}\nx\n{% endif %}", &Templates::new());
    assert!(
        e[0].message().contains("which is always present"),
        "{}",
        e[0]
    );
    let e = errors("{% if level %}\nx\n{% endif %}", &Templates::new());
    assert!(e[0].message().contains("a choice"), "{}", e[0]);
    let e = errors(
        "{% if verbose == \"x\" %}\nx\n{% endif %}",
        &Templates::new(),
    );
    assert!(e[0].message().contains("is a flag"), "{}", e[0]);
    let e = errors("{% if preferred %}\nx\n{% endif %}", &Templates::new());
    assert!(e[0].message().contains("an identity key"), "{}", e[0]);
    let e = errors("{% if noet %}\nx\n{% endif %}", &Templates::new());
    assert_eq!(e[0].message(), "unknown name in condition `noet`");
    assert_eq!(e[0].help(), Some("did you mean `note`?"));
    let r = run(
        "{% if verbose %}\nv\n{% endif %}\n{% if level == \"lean\" %}\n$level\n{% endif %}\n",
        &Templates::new(),
    )
    .unwrap();
    assert!(matches!(&r.parts[1], Part::If { test: Test::Equals(4, v), .. } if v == "lean"));
}

#[test]
fn every_problem_is_collected() {
    let e = errors(
        "$a $b\n$note\n{% if day %}\nx\n{% endif %}",
        &Templates::new(),
    );
    assert_eq!(e.len(), 4, "{e:?}");
}

#[test]
fn a_variant_two_keys_share_belongs_to_the_first_as_at_run_time() {
    let schema = Schema {
        identity: vec!["day_ABC".into(), "day_abc".into()],
        ..Schema::default()
    };
    let file = PromptFile::from_text("p.md", "$Day_abc").unwrap();
    let (nodes, _) = parse::parse(&file.source, file.body.clone(), ParseOptions::default());
    let r = resolve(&file.source, &nodes, &schema, &Templates::new()).unwrap();
    assert_eq!(r.identity_keys(), ["day_ABC"]);
    let identity = crate::Identity::from_json(r#"{"day_ABC": "one", "day_abc": "two"}"#).unwrap();
    assert_eq!(identity.get("Day_abc"), Some("One"));
}

/// Checking each of N templates on its own (as `promptic check` checks a template nothing
/// uses) costs time in proportion to N: a check that copied every template's name into
/// its tables first would make it N² work in all (a 10,000-deep chain: 51 s).
#[test]
fn checking_each_template_costs_nothing_per_template_it_does_not_use() {
    let project = |n: usize| {
        let mut t = Templates::new();
        for i in 0..n {
            // Chains of ten, each template a line.
            let text = if i % 10 == 9 {
                format!("line {i} $day\n")
            } else {
                format!("line {i} $t{}\n", i + 1)
            };
            t.insert(
                format!("t{i}"),
                PromptFile::from_text(&format!("prompts/templates/t{i}.md"), &text).unwrap(),
            );
        }
        t
    };
    let check_each = |templates: &Templates| {
        for (name, template) in templates.iter() {
            let context = crate::check::infer_context(&template.file, &[], &[], templates);
            let schema = Schema {
                context,
                ..Schema::default()
            };
            crate::check::check(name, template.file.clone(), schema, templates)
                .expect("each template checks");
        }
    };
    let (small, large) = (project(300), project(3_000));
    crate::scaling::assert_linear(
        "the templates",
        || check_each(&small),
        || check_each(&large),
    );
}
