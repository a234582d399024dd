// Method calls other than `items()`, `startswith` and `split` are refused.
#[derive(promptic::Prompt)]
#[prompt("errors/method_call")]
struct Page {
    name: &'static str,
}

fn main() {}
