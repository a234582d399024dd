// In a braces prompt, what Jinja or Handlebars reads as an expression or a comment is an
// error where it stands: it would otherwise reach the model as written.
#[derive(promptkit::Prompt)]
#[prompt("braces_jinja")]
struct BracesJinja<'a> {
    user_name: &'a str,
    max_iterations: u32,
}

fn main() {}
