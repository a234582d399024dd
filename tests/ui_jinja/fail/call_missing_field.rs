// `prompt!` of a Jinja prompt: a path into an argument's `PromptValue` type that does not
// exist, reported when the generated check is compiled.
#[derive(promptic::PromptValue)]
struct Profile {
    name: String,
}

fn main() {
    let _ = promptic::prompt!("bad_field", user = Profile { name: "Ada".into() });
}
