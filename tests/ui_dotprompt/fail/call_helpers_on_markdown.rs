// `prompt!` names helpers for a prompt that is no dotprompt file: `summary` is Markdown.
use promptic::dotprompt::{HelperArgs, Value};

fn dash_list(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

fn main() {
    let _ = promptic::prompt!("summary", helpers(list = dash_list), text = "notes");
}
