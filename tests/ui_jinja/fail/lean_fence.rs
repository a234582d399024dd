// A fence on "lean" would give lean lines that detailed lacks.
#[derive(promptkit::Prompt)]
#[prompt("errors/lean_fence")]
struct Page {
    guidance: promptkit::Guidance,
}

fn main() {}
