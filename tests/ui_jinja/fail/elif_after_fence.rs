// An `{% elif %}` after a guidance fence renders at lean what detailed lacks.
#[derive(promptkit::Prompt)]
#[prompt("errors/elif_after_fence")]
struct Page {
    guidance: promptkit::Guidance,
    flag: bool,
}

fn main() {}
