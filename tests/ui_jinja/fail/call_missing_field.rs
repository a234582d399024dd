// `prompt!` of a Jinja prompt: a path into an argument's `PromptValue` type that does not
// exist, reported when the generated check is compiled.
#[derive(promptkit::PromptValue)]
struct Profile {
    name: String,
}

fn main() {
    let _ = promptkit::prompt!("bad_field", user = Profile { name: "Ada".into() });
}
