// `user.items()` where `user` is a struct, not a map.
#[derive(promptic::PromptValue)]
struct Profile {
    name: String,
}

#[derive(promptic::Prompt)]
#[prompt("items_of_struct")]
struct Greeting {
    user: Profile,
}

fn main() {}
