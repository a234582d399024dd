// `name` is required but an `Option`; `age?` is optional but not an `Option`.
#[derive(promptic::Prompt)]
#[prompt("plain")]
struct Greeting {
    name: Option<String>,
    age: u32,
}

fn main() {}
