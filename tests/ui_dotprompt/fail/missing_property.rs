// The input schema's `name` is no field of the struct.
#[derive(promptic::Prompt)]
#[prompt("plain")]
struct Greeting {
    age: Option<u32>,
}

fn main() {}
