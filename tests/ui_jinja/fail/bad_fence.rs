// A guidance fence without `| default("detailed")`: no level given would mean lean.
#[derive(promptic::Prompt)]
#[prompt("bad_fence")]
struct Coached {
    guidance: promptic::Guidance,
}

fn main() {}
