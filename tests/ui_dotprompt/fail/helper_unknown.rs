// The template calls `lsit`; the attribute registers `list`.
use promptic::dotprompt::{HelperArgs, Value};

fn dash_list(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

#[derive(promptic::Prompt)]
#[prompt("misspelt_helper", helpers(list = dash_list))]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
