// `helpres`: the option is `helpers(name = function, ...)`.
use promptic::dotprompt::{HelperArgs, Value};

fn dash_list(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

#[derive(promptic::Prompt)]
#[prompt("shopping", helpres(list = dash_list))]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
