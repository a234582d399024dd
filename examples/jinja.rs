//! A Jinja system prompt with includes, at both guidance levels: `cargo run --example jinja`.
//!
//! `examples/jinja/system.md.j2` is written as a LangAlpha template is: `.md.j2`, an
//! include from `components/`, a loop, and coaching inside
//! `{% if guidance | default("detailed") == "detailed" %}` fences. `promptkit.json` sets
//! LangAlpha's Jinja options. Loading checks the subset and the fences; rendering gives
//! the bytes Jinja2 gives.

use promptkit::load::Project;
use std::path::Path;

fn main() -> Result<(), promptkit::Diagnostics> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/jinja");
    let project = Project::open(&dir, "examples/jinja")?;
    let (file, templates) = project.load_jinja("system")?;
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
        println!("=== {level} ({} bytes)\n{text}", text.len());
    }
    Ok(())
}
