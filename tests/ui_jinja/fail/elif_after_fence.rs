// An `{% elif %}` after a guidance fence renders at lean what detailed lacks.
#[derive(promptic::Prompt)]
#[prompt("errors/elif_after_fence")]
struct Page {
    guidance: promptic::Guidance,
    flag: bool,
}

fn main() {}
