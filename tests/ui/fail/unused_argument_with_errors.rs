// `prompt!` reports an unused argument together with the prompt's other problems, as the
// derive reports an unused field.
fn main() {
    let day = "Friday";
    let _ = promptkit::prompt!("typo", day, mood = "calm");
}
