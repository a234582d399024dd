// `helpers(...)` names functions a dotprompt template calls: `summary` is Markdown.
use promptic::dotprompt::{HelperArgs, Value};

fn dash_list(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

#[derive(promptic::Prompt)]
#[prompt("summary", helpers(list = dash_list))]
struct Summary<'a> {
    text: &'a str,
}

fn main() {}
