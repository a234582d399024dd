// `@` values (`@state`, `@auth`) come from the render's context: `render_with_context`
// gives them, as dotprompt's `DataArgument.context`, and renders what the run-time
// renderer renders from the same data.
use promptic::dotprompt::{DataArgument, Dotprompt};

#[derive(promptic::Prompt)]
#[prompt("session_step")]
struct SessionStep<'a> {
    task: &'a str,
}

fn text(rendered: &promptic::dotprompt::RenderedPrompt) -> String {
    rendered
        .messages
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|p| p.text())
        .collect()
}

fn main() {
    let prompt = SessionStep { task: "tax forms" };
    let context: serde_json::Map<String, serde_json::Value> = serde_json::from_value(
        serde_json::json!({"state": {"step": 2, "steps": 5}, "auth": {"email": "ada@example.org"}}),
    )
    .unwrap();
    let with = prompt.render_with_context(&context, &[]).unwrap();
    // `prompt!` takes the same context.
    let call = promptic::prompt!("session_step", task = "tax forms");
    assert_eq!(call.render_with_context(&context, &[]).unwrap(), with);
    assert_eq!(
        text(&with),
        "You help with tax forms.\nYou are at step 2 of 5.\nThe user signed in as ada@example.org."
    );
    // The run-time renderer, given the same input and context, renders the same.
    let source = std::fs::read_to_string(concat!(
        env!("PROMPTIC_MANIFEST_DIR"),
        "/prompts/session_step.prompt"
    ))
    .unwrap();
    let runtime = Dotprompt::parse(&source).unwrap();
    let data: DataArgument = serde_json::from_value(serde_json::json!({
        "input": {"task": "tax forms"},
        "context": context,
    }))
    .unwrap();
    assert_eq!(runtime.render(&data).unwrap(), with);
    // No context: the compiled render, and no `@` value. (The trailing newline here and
    // not above is dotprompt's: its JS render gives the same bytes for both.)
    let without = prompt.render_with_context(&serde_json::Map::new(), &[]).unwrap();
    assert_eq!(without, prompt.render().unwrap());
    assert_eq!(
        text(&without),
        "You help with tax forms.\nThis is a new session.\n"
    );
}
