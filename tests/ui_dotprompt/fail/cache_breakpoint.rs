// Everything before a `{{cacheBreakpoint}}` must be the same on every request: a value
// written there would break the provider's cache.
#[derive(promptic::Prompt)]
#[prompt("cached_late")]
struct CachedLate<'a> {
    customer: &'a str,
    question: &'a str,
}

fn main() {}
