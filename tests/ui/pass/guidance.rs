// Guidance fences: detailed adds lines, lean is what remains, and a registered
// either-or (`{% else "why" %}`) may invert the steering.
use promptic::{Guidance, Identity, Prompt};

#[derive(Prompt)]
#[prompt("levels")]
struct Levels<'a> {
    topic: &'a str,
    guidance: Guidance,
}

fn main() {
    let identity = Identity::default();
    let detailed = Levels { topic: "tides", guidance: Guidance::Detailed }.render(&identity);
    let lean = Levels { topic: "tides", guidance: Guidance::Lean }.render(&identity);
    assert_eq!(
        detailed.text,
        "Answer the question about tides.\nExplain each step, then check the answer against the sources.\nShow your work."
    );
    assert_eq!(lean.text, "Answer the question about tides.\nGive the answer alone.");
}
