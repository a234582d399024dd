// The template calls `list`, which no `helpers(...)` names.
#[derive(promptic::Prompt)]
#[prompt("shopping")]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
