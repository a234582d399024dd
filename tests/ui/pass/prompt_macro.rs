// `prompt!` takes raw identifiers, and a name that a block tests and the text also writes
// takes a `bool`.
fn main() {
    let identity = promptic::Identity::default();
    let t = "chore";
    assert_eq!(promptic::prompt!("rawtype", r#type = t).render(&identity).text, "Type: chore");
    let verbose = true;
    assert_eq!(promptic::prompt!("flagout", verbose).render(&identity).text, "Verbose: true\nMore.");
    assert_eq!(promptic::prompt!("flagout", verbose = false).render(&identity).text, "Verbose: false");

    #[derive(promptic::Prompt)]
    #[prompt("rawtype")]
    struct Raw<'a> {
        r#type: &'a str,
    }
    assert_eq!(Raw { r#type: "fix" }.render(&identity).text, "Type: fix");
    shadowing();
}

// An argument shadows the identity key of the same name.
fn shadowing() {
    let identity = promptic::Identity::default();
    let who: Option<&str> = Some("Sam");
    assert_eq!(promptic::prompt!("idopt", preferred = who).render(&identity).text, "Hi Sam");
}
