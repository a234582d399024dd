// `user.name.first` where `name` is a `String`.
#[derive(promptkit::PromptValue)]
struct Profile {
    name: String,
}

#[derive(promptkit::Prompt)]
#[prompt("into_text")]
struct Greeting {
    user: Profile,
}

fn main() {}
