// An `{% endif %}` with no `{% if %}` open.
#[derive(promptic::Prompt)]
#[prompt("errors/stray_endif")]
struct Page;

fn main() {}
