// A construct the derive does not compile is an error at it: a derived prompt never
// switches to the run-time renderer quietly. The code that renders the prompt compiles
// against the fallback, so the construct is the only error.
#[derive(promptic::Prompt)]
#[prompt("errors/metadata")]
struct Steps {
    title: String,
}

fn main() -> Result<(), promptic::Diagnostic> {
    let steps = Steps { title: "Plan".to_owned() };
    println!("{}", steps.render()?.messages.len());
    Ok(())
}
