// A fence on "lean" would give lean lines that detailed lacks.
#[derive(promptic::Prompt)]
#[prompt("errors/lean_fence")]
struct Page {
    guidance: promptic::Guidance,
}

fn main() {}
