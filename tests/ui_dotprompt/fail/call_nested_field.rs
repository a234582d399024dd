// `prompt!` of a dotprompt file: the schema's `user.email` is no field of the argument's
// `PromptValue` type (it has `mail`), reported when the generated check is compiled.
#[derive(promptic::PromptValue)]
struct User {
    name: String,
    mail: String,
}

fn main() {
    let user = User { name: "Ada".into(), mail: "ada@example.com".into() };
    let _ = promptic::prompt!("nested", user).render();
}
