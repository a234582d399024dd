// `add` is named, but `shopping.prompt` never calls it.
use promptic::dotprompt::{HelperArgs, Value};

fn dash_list(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

fn add(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

#[derive(promptic::Prompt)]
#[prompt("shopping", helpers(list = dash_list, add = add))]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
