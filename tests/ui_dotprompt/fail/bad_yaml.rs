// The frontmatter is not YAML.
#[derive(promptic::Prompt)]
#[prompt("bad_yaml")]
struct Greeting {
    name: String,
}

fn main() {}
