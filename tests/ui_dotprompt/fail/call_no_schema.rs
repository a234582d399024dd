// `prompt!` of a dotprompt file without an input schema: the template reads `naem`, which
// no argument gives (the argument is `name`).
fn main() {
    let _ = promptic::prompt!("no_schema", name = "Ada").render();
}
