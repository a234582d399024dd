// A guidance fence must open its own line.
#[derive(promptkit::Prompt)]
#[prompt("errors/mid_line_fence")]
struct Page {
    guidance: promptkit::Guidance,
}

fn main() {}
