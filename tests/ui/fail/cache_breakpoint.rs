// Everything before a cache breakpoint must be the same on every request: a free-text
// value there, even in a template, would break the provider's cache.
#[derive(promptic::Prompt)]
#[prompt("breakpoint_late")]
struct Support<'a> {
    day: &'a str,
}

fn main() {}
