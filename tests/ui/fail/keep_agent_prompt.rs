// `prompt!` on a keep agent prompt: a misspelt argument is one error, at the argument,
// with the placeholder it meant (not a second one at the `{text}` it leaves unfilled).
fn main() {
    let _ = promptic::prompt!("keep_agent", txt = "hello");
}
