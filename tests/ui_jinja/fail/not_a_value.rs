// A field whose type a template cannot read: it must derive `PromptValue`.
struct Profile {
    name: String,
}

#[derive(promptic::Prompt)]
#[prompt("bad_field")]
struct Greeting {
    user: Profile,
}

fn main() {}
