// `name: string` given as a number, `age?: integer` as text.
#[derive(promptic::Prompt)]
#[prompt("plain")]
struct Greeting {
    name: u64,
    age: Option<String>,
}

fn main() {}
