// The attribute `groupby` groups by is a path into the items: `knd` is no field of `Tool`.
#[derive(promptic::PromptValue)]
struct Tool<'a> {
    name: &'a str,
    kind: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("bad_groupby")]
struct Toolbox<'a> {
    tools: Vec<Tool<'a>>,
}

fn main() {}
