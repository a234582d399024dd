// `helpers` takes `name = function` pairs.
#[derive(promptic::Prompt)]
#[prompt("shopping", helpers(list))]
struct Shopping {
    items: Vec<String>,
}

fn main() {}
