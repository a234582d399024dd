// The template reads `nmae` and `user.emial`, which the schema does not have.
#[derive(promptkit::PromptValue)]
struct User {
    email: String,
}

#[derive(promptkit::Prompt)]
#[prompt("reads_missing")]
struct Greeting {
    name: String,
    user: User,
}

fn main() {}
