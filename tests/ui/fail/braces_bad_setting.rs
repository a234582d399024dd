// `"placeholders"` takes "dollar" or "braces"; a near miss gets a suggestion.
#[derive(promptic::Prompt)]
#[prompt("braces_setting")]
struct BracesSetting<'a> {
    day: &'a str,
}

fn main() {}
