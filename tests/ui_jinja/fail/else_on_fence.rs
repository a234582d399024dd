// An unregistered `{% else %}` on a guidance fence.
#[derive(promptic::Prompt)]
#[prompt("errors/else_on_fence")]
struct Page {
    guidance: promptic::Guidance,
}

fn main() {}
