// `prompt!` takes raw identifiers, and a name that a block tests and the text also writes
// takes a `bool`.
fn main() {
    let identity = promptkit::Identity::default();
    let t = "chore";
    assert_eq!(promptkit::prompt!("rawtype", r#type = t).render(&identity).text, "Type: chore");
    let verbose = true;
    assert_eq!(promptkit::prompt!("flagout", verbose).render(&identity).text, "Verbose: true\nMore.");
    assert_eq!(promptkit::prompt!("flagout", verbose = false).render(&identity).text, "Verbose: false");

    #[derive(promptkit::Prompt)]
    #[prompt("rawtype")]
    struct Raw<'a> {
        r#type: &'a str,
    }
    assert_eq!(Raw { r#type: "fix" }.render(&identity).text, "Type: fix");
}
