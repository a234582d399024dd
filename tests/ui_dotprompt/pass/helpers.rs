// Helpers named in the derive's attribute (and in `prompt!`): the prompt calls `list` and `add` (as Genkit's
// samples register them), the render runs them, and gives what the run-time renderer
// gives with the same helpers registered.
use promptic::dotprompt::{DataArgument, HelperArgs, Registry, Value};

fn dash_list(args: &HelperArgs<'_>) -> Result<Value, String> {
    Ok(match args.param(0) {
        Some(Value::Array(items)) => Value::from(
            items
                .iter()
                .map(|item| format!("- {}", item.to_js_string()))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => Value::from(""),
    })
}

fn add(args: &HelperArgs<'_>) -> Result<Value, String> {
    let number = |i| args.param(i).and_then(Value::as_f64).ok_or("`add` takes two numbers");
    Ok(Value::from(serde_json::json!(number(0)? + number(1)?)))
}

#[derive(promptic::Prompt)]
#[prompt("recipe", helpers(list = dash_list, add = add))]
struct Recipe<'a> {
    food: &'a str,
    ingredients: Vec<&'a str>,
    servings: u32,
    extra: u32,
}

#[derive(promptic::Prompt)]
#[prompt("shopping", helpers(list = dash_list))]
struct Shopping {
    items: Vec<String>,
}

fn main() {
    let recipe = Recipe { food: "pancakes", ingredients: vec!["eggs", "flour"], servings: 2, extra: 1 };
    let derived = recipe.render().unwrap();
    let text = derived.messages[0].content[0].text().unwrap();
    assert_eq!(text, "You are a chef. Make pancakes for 3 people.\n\nIngredients:\n- eggs\n- flour");

    let dir = std::path::Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let mut registry = Registry::new();
    registry.define_helper("list", dash_list).unwrap();
    registry.define_helper("add", add).unwrap();
    let prompt = registry.parse(&std::fs::read_to_string(dir.join("recipe.prompt")).unwrap()).unwrap();
    let data: DataArgument = serde_json::from_value(serde_json::json!({
        "input": {"food": "pancakes", "ingredients": ["eggs", "flour"], "servings": 2, "extra": 1}
    }))
    .unwrap();
    assert_eq!(derived, prompt.render(&data).unwrap());

    // `prompt!` names the same helpers, and renders as the derive does.
    let call = promptic::prompt!(
        "recipe",
        helpers(list = dash_list, add = add),
        food = "pancakes",
        ingredients = vec!["eggs", "flour"],
        servings = 2_u32,
        extra = 1_u32,
    );
    assert_eq!(call.render().unwrap(), derived);

    let shopping = Shopping { items: vec!["milk".into()] }.render().unwrap();
    assert_eq!(shopping.messages[0].content[0].text(), Some("Buy:\n- milk\n"));
}
