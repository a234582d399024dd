//! Guidance levels, static prompts and declared context, for prompts checked at run time
//! (the CLI and `Project`): the same rules the derive applies.

use prompt_runtime::Identity;
use prompt_runtime::load::Project;
use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("promptic-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("templates")).unwrap();
    for (path, text) in files {
        fs::write(dir.join(path), text).unwrap();
    }
    dir
}

fn values(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_missing_level_is_detailed_and_fences_are_checked() {
    let dir = folder(
        "levels",
        &[
            (
                "p.md",
                "Answer.\n{% if guidance == \"detailed\" %}\nShow steps.\n{% endif %}",
            ),
            (
                "typo.md",
                "{% if guidance == \"detialed\" %}\nx\n{% endif %}",
            ),
            ("lean.md", "{% if guidance == \"lean\" %}\nx\n{% endif %}"),
            (
                "inverted.md",
                "{% if guidance == \"detailed\" %}\nA\n{% else \"small models need the rule stated\" %}\nB\n{% endif %}",
            ),
            (
                "templates/coach.md",
                "{% if guidance == \"detailed\" %}\nA\n{% else %}\nB\n{% endif %}",
            ),
            ("via_template.md", "Start\n$coach"),
        ],
    );
    let project = Project::open(&dir, "prompts").unwrap();
    let p = project.check_inferred("p").unwrap();
    let identity = Identity::default();
    assert_eq!(
        p.render(&HashMap::new(), &identity).unwrap().text,
        "Answer.\nShow steps."
    );
    assert_eq!(
        p.render(&values(&[("guidance", "lean")]), &identity)
            .unwrap()
            .text,
        "Answer."
    );
    assert!(
        p.render(&values(&[("guidance", "Lean")]), &identity)
            .is_err()
    );
    let typo = project.check_inferred("typo").unwrap_err().to_string();
    assert!(typo.contains("did you mean \"detailed\"?"), "{typo}");
    let lean = project.check_inferred("lean").unwrap_err().to_string();
    assert!(
        lean.contains("renders lines at lean that detailed lacks"),
        "{lean}"
    );
    assert!(project.check_inferred("inverted").is_ok());
    let via = project
        .check_inferred("via_template")
        .unwrap_err()
        .to_string();
    assert!(
        via.contains("an `{% else %}` on a guidance fence")
            && via.contains("templates/coach.md:3:1"),
        "{via}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_static_prompt_refuses_per_request_values() {
    let dir = folder(
        "static",
        &[
            (
                "ok.md",
                "{\n\"cache\": \"static\"\n}\nRules.\n{% if guidance == \"detailed\" %}\nMore.\n{% endif %}\n{% if verbose %}\nVerbose.\n{% endif %}",
            ),
            ("bad.md", "{\n\"cache\": \"static\"\n}\nHello $name, $sig"),
            ("templates/sig.md", "-- $day"),
            ("wrong.md", "{\n\"cache\": \"always\"\n}\nx"),
        ],
    );
    let project = Project::open(&dir, "prompts").unwrap();
    assert!(project.check_inferred("ok").is_ok());
    let bad = project.check_inferred("bad").unwrap_err();
    let messages: Vec<&str> = bad.0.iter().map(|d| d.message()).collect();
    assert_eq!(
        messages,
        [
            "`name` is an identity value, used in a static prompt",
            "`day` is a free-text context value, used in a static prompt"
        ]
    );
    assert_eq!(
        bad.0[1].location().unwrap().path,
        format!("prompts/templates/sig.md")
    );
    let wrong = project.check_inferred("wrong").unwrap_err().to_string();
    assert!(wrong.contains("`cache` must be \"static\""), "{wrong}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_declared_context_makes_other_names_unknown() {
    let dir = folder(
        "declared",
        &[(
            "p.md",
            "{\n\"context\": [\"day\", \"note\"]\n}\nToday is $day, $dya.\n{% if note %}\n$note\n{% endif %}",
        )],
    );
    let project = Project::open(&dir, "prompts").unwrap();
    let err = project.check_inferred("p").unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("unknown placeholder `$dya`"), "{shown}");
    assert!(shown.contains("did you mean `$day`?"), "{shown}");
    fs::write(
        dir.join("p.md"),
        "{\n\"context\": [\"day\", \"note\"]\n}\nToday is $day.\n{% if note %}\n$note\n{% endif %}",
    )
    .unwrap();
    let project = Project::open(&dir, "prompts").unwrap();
    let p = project.check_inferred("p").unwrap();
    let out = p
        .render(&values(&[("day", "Fri")]), &Identity::default())
        .unwrap();
    assert_eq!(out.text, "Today is Fri.");
    let _ = fs::remove_dir_all(&dir);
}
