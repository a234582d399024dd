// A macro called (inside an expression) by one defined before it.
#[derive(promptic::Prompt)]
#[prompt("errors/macro_called_early")]
struct Table {
    items: Vec<String>,
}

fn main() {}
