// An imported macro called without a parameter whose default is no literal (it is written in
// the other template): one error, at the call.
#[derive(promptic::PromptValue)]
struct Stop<'a> {
    city: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("import_default")]
struct Trip<'a> {
    stops: Vec<Stop<'a>>,
}

fn main() {}
