// `prompt!` on a keep agent prompt: a placeholder no argument fills is an error at the
// placeholder, in the prompt file, with how to pass it.
fn main() {
    let _ = promptic::prompt!("keep/plain", name = Some("Ada"));
}
