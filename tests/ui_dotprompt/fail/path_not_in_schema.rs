// The template reads `nmae` and `user.emial`, which the schema does not have.
#[derive(promptic::PromptValue)]
struct User {
    email: String,
}

#[derive(promptic::Prompt)]
#[prompt("reads_missing")]
struct Greeting {
    name: String,
    user: User,
}

fn main() {}
