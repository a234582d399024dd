// A macro's call names a parameter the macro does not have.
#[derive(promptic::Prompt)]
#[prompt("errors/macro_param")]
struct Page {
    count: u32,
}

fn main() {}
