// An `Option` field read without `{% if %}` or `| default(…)`.
#[derive(promptic::Prompt)]
#[prompt("unguarded")]
struct Greeting<'a> {
    user_name: &'a str,
    note: Option<&'a str>,
}

fn main() {}
