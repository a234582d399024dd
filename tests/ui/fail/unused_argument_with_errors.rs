// `prompt!` reports an unused argument together with the prompt's other problems, as the
// derive reports an unused field.
fn main() {
    let day = "Friday";
    let _ = promptic::prompt!("typo", day, mood = "calm");
}
