//! One prompt at both guidance levels: `cargo run --example guidance`.
//!
//! `prompts/research_answer.md` fences its coaching in `{% if guidance == "detailed" %}`;
//! lean is what remains, and the one place where the steering inverts is registered with
//! `{% else "why" %}`. The derive proves that lean renders no other line detailed lacks.
//! The prompt is `"cache": "static"`: it may use the level, but no per-request value, so it
//! renders the same bytes on every turn at a level and a provider can cache it.

use promptic::{Guidance, Identity, Prompt};

#[derive(Prompt)]
#[prompt("research_answer")]
struct ResearchAnswer {
    guidance: Guidance,
}

fn main() {
    let identity = Identity::default();
    // The level from the first setting that names a valid one, `detailed` when none does.
    let model_entry = Some("lean");
    let level = Guidance::resolve([None, Some("fast"), model_entry]);
    for guidance in [Guidance::Detailed, level] {
        let out = ResearchAnswer { guidance }.render(&identity);
        println!("=== {guidance} ({} bytes)\n{}\n", out.text.len(), out.text);
    }
    println!("version {}", <ResearchAnswer as Prompt>::VERSION);
}
