// A YAML frontmatter is refused with its JSON form, not rendered into the prompt.
#[derive(promptic::Prompt)]
#[prompt("yaml_frontmatter")]
struct Daily<'a> {
    day: &'a str,
}

fn main() {}
