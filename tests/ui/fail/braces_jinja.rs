// In a braces prompt, what Jinja or Handlebars reads as an expression or a comment is an
// error where it stands: it would otherwise reach the model as written.
#[derive(promptic::Prompt)]
#[prompt("braces_jinja")]
struct BracesJinja<'a> {
    day: &'a str,
}

fn main() {}
