// A guidance fence must open its own line.
#[derive(promptic::Prompt)]
#[prompt("errors/mid_line_fence")]
struct Page {
    guidance: promptic::Guidance,
}

fn main() {}
