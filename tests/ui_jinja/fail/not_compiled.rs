// A construct the derive does not compile is an error at it: a derived prompt never
// switches to the run-time renderer quietly.
#[derive(promptic::Prompt)]
#[prompt("errors/namespace_in_if")]
struct Steps {
    steps: Vec<String>,
}

fn main() {}
