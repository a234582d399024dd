// `name` is required but an `Option`; `age?` is optional but not an `Option`.
#[derive(promptkit::Prompt)]
#[prompt("plain")]
struct Greeting {
    name: Option<String>,
    age: u32,
}

fn main() {}
