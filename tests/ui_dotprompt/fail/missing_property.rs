// A property of the input schema that no field gives.
#[derive(promptkit::Prompt)]
#[prompt("plain")]
struct Greeting {
    nmae: String,
    age: Option<u32>,
}

fn main() {}
