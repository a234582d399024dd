// A field the input schema does not have.
#[derive(promptic::Prompt)]
#[prompt("plain")]
struct Greeting {
    name: String,
    age: Option<u32>,
    nickname: String,
}

fn main() {}
