// Templates that import each other's macros, in a circle: one error, at the import that closes it.
#[derive(promptic::PromptValue)]
struct Stop<'a> {
    city: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("import_cycle")]
struct Trip<'a> {
    stops: Vec<Stop<'a>>,
}

fn main() {}
