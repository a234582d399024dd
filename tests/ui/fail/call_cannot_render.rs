// A `prompt!` argument whose type cannot render is reported at the argument.
fn main() {
    let scores = vec![1_u32, 2];
    let _ = promptic::prompt!("unrenderable", day = "Monday", scores = scores.clone());
}
