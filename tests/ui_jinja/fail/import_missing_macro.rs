// A macro imported by a name the other template does not define is one error, at the name,
// with the closest macro it does define.
#[derive(promptic::PromptValue)]
struct Stop<'a> {
    city: &'a str,
    nights: u32,
}

#[derive(promptic::Prompt)]
#[prompt("import_typo")]
struct Trip<'a> {
    stops: Vec<Stop<'a>>,
}

fn main() {}
