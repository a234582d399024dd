// An unregistered `{% else %}` on a guidance fence.
#[derive(promptkit::Prompt)]
#[prompt("errors/else_on_fence")]
struct Page {
    guidance: promptkit::Guidance,
}

fn main() {}
