// The schema's `user.email` is no field of `User` (it has `mail`).
#[derive(promptkit::PromptValue)]
struct User {
    name: String,
    mail: String,
}

#[derive(promptkit::Prompt)]
#[prompt("nested")]
struct Greeting {
    user: User,
}

fn main() {}
