// `user.name.first` where `name` is a `String`.
#[derive(promptic::PromptValue)]
struct Profile {
    name: String,
}

#[derive(promptic::Prompt)]
#[prompt("into_text")]
struct Greeting {
    user: Profile,
}

fn main() {}
