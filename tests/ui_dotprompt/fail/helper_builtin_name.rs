// `json` is dotprompt's own helper: a registered helper needs a name of its own.
use promptic::dotprompt::{HelperArgs, Value};

fn to_json(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

#[derive(promptic::Prompt)]
#[prompt("shopping", helpers(json = to_json))]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
