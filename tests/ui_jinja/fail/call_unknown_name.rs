// `prompt!` of a Jinja prompt: a name the template reads that no argument gives, and an
// argument the template never reads. The value still has Jinja's `render()`: no error follows.
fn main() {
    let _ = promptic::prompt!("typo", user_name = "Ada").render();
}
