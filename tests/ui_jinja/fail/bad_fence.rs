// A guidance fence without `| default("detailed")`: no level given would mean lean.
#[derive(promptkit::Prompt)]
#[prompt("bad_fence")]
struct Coached {
    guidance: promptkit::Guidance,
}

fn main() {}
