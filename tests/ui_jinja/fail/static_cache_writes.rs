// A `{# cache: static #}` prompt may test values but not write them into its text.
#[derive(promptic::Prompt)]
#[prompt("errors/static_cache_writes")]
struct Page {
    name: &'static str,
}

fn main() {}
