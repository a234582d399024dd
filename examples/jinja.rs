//! A Jinja system prompt with includes, at both guidance levels, through the derive and at
//! run time: `cargo run --example jinja`.
//!
//! `prompts/trip_planner.md.j2` is written as a LangAlpha template is: `.md.j2`, an
//! include from `components/`, a loop, optional values under `default`, and coaching
//! inside `{% if guidance | default("detailed") == "detailed" %}` fences.
//! `prompts/promptic.json` sets LangAlpha's Jinja options.
//!
//! The derive checks the template when this example compiles: every name it reads is a
//! field, every path into a `PromptValue` struct exists (`stop.city`), the fences are
//! well formed. At run time, `Project::load_jinja` reads the same files with the same
//! checks, for templates that arrive as files; both give the bytes Jinja2 gives.

use promptic::load::Project;
use promptic::{Guidance, PromptValue};
use std::path::Path;

#[derive(PromptValue)]
struct Traveller<'a> {
    name: &'a str,
}

#[derive(PromptValue)]
struct Stop<'a> {
    city: &'a str,
    nights: Option<u8>,
}

#[derive(promptic::Prompt)]
#[prompt("trip_planner")]
struct TripPlanner<'a> {
    guidance: Guidance,
    traveller: Traveller<'a>,
    stops: &'a [Stop<'a>],
    currency: Option<&'a str>,
}

fn main() -> Result<(), promptic::Diagnostics> {
    let stops = [
        Stop {
            city: "Lyon",
            nights: Some(2),
        },
        Stop {
            city: "Turin",
            nights: None,
        },
    ];
    // Through the derive: checked at compile time, rendered with typed values.
    for guidance in [Guidance::Detailed, Guidance::Lean] {
        let prompt = TripPlanner {
            guidance,
            traveller: Traveller { name: "Sam" },
            stops: &stops,
            currency: None,
        };
        let text = prompt.render()?.text;
        println!("=== derive, {guidance} ({} bytes)\n{text}", text.len());
    }

    // At run time: the same files, values as JSON.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts")?;
    let (file, templates) = project.load_jinja("trip_planner")?;
    let needed: Vec<String> = templates
        .uses(&file)
        .into_iter()
        .map(|u| format!("{}{}", u.name, if u.required { "" } else { "?" }))
        .collect();
    println!("{file} reads {}", needed.join(", "));
    for level in ["detailed", "lean"] {
        let values = serde_json::json!({
            "guidance": level,
            "traveller": {"name": "Sam"},
            "stops": [{"city": "Lyon", "nights": 2}, {"city": "Turin"}],
        });
        let text = templates.render(&file, &values)?;
        let derived = TripPlanner {
            guidance: level.parse().unwrap_or_default(),
            traveller: Traveller { name: "Sam" },
            stops: &stops,
            currency: None,
        };
        assert_eq!(
            derived.render()?.text,
            text,
            "the derive renders as run time does"
        );
        println!(
            "=== run time, {level} ({} bytes): as the derive's",
            text.len()
        );
    }
    Ok(())
}
