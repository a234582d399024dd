// `d.items` read as an attribute: Jinja2 gives the method, not a key.
#[derive(promptic::Prompt)]
#[prompt("errors/dict_method_attr")]
struct Page {
    counts: std::collections::BTreeMap<String, u32>,
}

fn main() {}
