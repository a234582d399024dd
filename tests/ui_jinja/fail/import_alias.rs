// A macro of a template imported `as m`, misspelt: one error, at the name, with the closest.
#[derive(promptic::PromptValue)]
struct Stop<'a> {
    city: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("import_alias")]
struct Trip<'a> {
    stops: Vec<Stop<'a>>,
}

fn main() {}
