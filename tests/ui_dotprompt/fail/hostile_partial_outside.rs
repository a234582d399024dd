// Hostile input: `prompts/partial_outside.prompt` (see tests/ui_dotprompt.rs for the ones made at
// test time). A located error, never a panic, a hang or a stack overflow.
#[derive(promptic::Prompt)]
#[prompt("partial_outside")]
struct P {
    a: Option<String>,
}

fn main() {}
