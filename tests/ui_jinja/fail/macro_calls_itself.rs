// A macro that calls itself: the reader puts a macro's body in place of each call, which
// a call of itself would do for ever.
#[derive(promptic::Prompt)]
#[prompt("errors/macro_calls_itself")]
struct Schema {
    schema: serde_json::Value,
}

fn main() {}
