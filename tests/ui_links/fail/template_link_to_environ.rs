// A template linked to the build's environment: never read, never compiled in.
#[derive(promptic::Prompt)]
#[prompt("greet")]
struct Greet<'a> {
    name: &'a str,
}

fn main() {}
