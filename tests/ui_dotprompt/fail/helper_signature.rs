// A helper takes `&HelperArgs` and returns `Result<Value, String>`: this one returns text.
use promptic::dotprompt::HelperArgs;

fn dash_list(_: &HelperArgs<'_>) -> String {
    String::new()
}

#[derive(promptic::Prompt)]
#[prompt("shopping", helpers(list = dash_list))]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
