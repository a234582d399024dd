// `prompt!` of a dotprompt file: an argument the input schema does not declare (a
// misspelt `name`). The value still has dotprompt's `render()`: no error follows.
fn main() {
    let _ = promptic::prompt!("plain", nmae = "Ada").render();
}
