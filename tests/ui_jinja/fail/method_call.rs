// A method the run-time renderer reads (`.title()`) is not compiled by the derive: an error at it.
#[derive(promptic::Prompt)]
#[prompt("errors/method_call")]
struct Page {
    name: &'static str,
}

fn main() {}
