// `helpers(...)` written twice in one `prompt!`.
use promptic::dotprompt::{HelperArgs, Value};

fn dash_list(_: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(Value::Null)
}

fn main() {
    let _ = promptic::prompt!(
        "shopping",
        helpers(list = dash_list),
        helpers(list = dash_list),
        items = vec!["milk"],
    );
}
