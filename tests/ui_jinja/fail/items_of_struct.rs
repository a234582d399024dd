// `user.items()` where `user` is a struct, not a map.
#[derive(promptkit::PromptValue)]
struct Profile {
    name: String,
}

#[derive(promptkit::Prompt)]
#[prompt("items_of_struct")]
struct Greeting {
    user: Profile,
}

fn main() {}
