// A `{% for %}` without its `{% endfor %}` points at the loop it leaves open.
#[derive(promptic::Prompt)]
#[prompt("errors/unclosed_for")]
struct Page {
    xs: Vec<&'static str>,
}

fn main() {}
