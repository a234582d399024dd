// `prompt!` of a dotprompt file: a required input that no argument gives, reported at the
// input in the prompt file. (`age?` is optional and may be left out.)
fn main() {
    let _ = promptic::prompt!("plain", age = 3).render();
}
