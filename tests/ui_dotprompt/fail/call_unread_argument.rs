// `prompt!` of a dotprompt file without an input schema: an argument the template never
// reads.
fn main() {
    let _ = promptic::prompt!("no_schema", naem = "Ada", tone = "warm").render();
}
