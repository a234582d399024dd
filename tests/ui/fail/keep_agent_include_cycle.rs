// The includes of a keep agent prompt are expanded at build time; one that cannot be
// expanded is an error at the include, in the file that wrote it.
#[derive(promptic::Prompt)]
#[prompt("keep/cycle_a")]
struct Agent<'a> {
    text: &'a str,
}

fn main() {
    let _ = Agent { text: "x" }.render();
}
