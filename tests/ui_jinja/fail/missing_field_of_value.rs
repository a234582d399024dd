// `user.nmae` where `Profile` has `name`, read twice (`.first`, `.last`): one compile error
// at the prompt's line and column, with the closest field, although the derive of
// `Greeting` cannot see `Profile`.
#[derive(promptic::PromptValue)]
struct Profile {
    name: String,
    region: String,
}

#[derive(promptic::Prompt)]
#[prompt("bad_field")]
struct Greeting {
    user: Profile,
}

fn main() {}
