// The output type derives `PromptValue`, so its fields are checked against the output
// schema the prompt declares, as input fields are: `tags` may be missing from an answer.
#[derive(serde::Deserialize, promptic::PromptValue)]
struct Triage {
    severity: String,
    summary: String,
    tags: Vec<String>,
}

#[derive(promptic::Prompt)]
#[prompt("triage", output = Triage)]
struct Ticket<'a> {
    ticket: &'a str,
}

fn main() {}
