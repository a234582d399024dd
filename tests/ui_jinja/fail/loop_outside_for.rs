// `loop` read outside a `{% for %}` is an error, not an empty value.
#[derive(promptic::Prompt)]
#[prompt("errors/loop_outside_for")]
struct Page;

fn main() {}
