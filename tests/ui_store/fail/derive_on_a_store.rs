// The prompts folder is a PromptEngine store: its prompts are derived together, with
// `#[derive(PromptStore)]`, not one by one.
use promptic::Prompt;

#[derive(Prompt)]
#[prompt("rules")]
struct Rules {
    char_name: String,
}

fn main() {
    let text = promptic::prompt!("rules", char_name = "Mia");
    let _ = (Rules { char_name: String::new() }, text);
}
