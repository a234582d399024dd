// Slices are read at run time, not compiled by the derive: an error at the slice. The code
// that renders the prompt compiles against the fallback, so the mistake is the only error.
#[derive(promptic::Prompt)]
#[prompt("errors/slice")]
struct Page {
    name: &'static str,
}

fn main() -> Result<(), promptic::Diagnostic> {
    println!("{}", Page { name: "Ada" }.render()?.text);
    Ok(())
}
