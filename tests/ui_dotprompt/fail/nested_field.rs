// The schema's `user.email` is no field of `User` (it has `mail`): one error, not one more
// for each of its properties.
#[derive(promptic::PromptValue)]
struct User {
    name: String,
    mail: String,
}

#[derive(promptic::Prompt)]
#[prompt("nested")]
struct Greeting {
    user: User,
}

fn main() {}
