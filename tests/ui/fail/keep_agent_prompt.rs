// A keep agent prompt (`"placeholders": "keep"`) is derived on a struct of its own;
// `prompt!` refuses it rather than render its `{text}` verbatim.
fn main() {
    let _ = promptic::prompt!("keep_agent", text = "hello");
}
