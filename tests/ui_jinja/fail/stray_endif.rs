// An `{% endif %}` with no `{% if %}` open.
#[derive(promptkit::Prompt)]
#[prompt("errors/stray_endif")]
struct Page;

fn main() {}
