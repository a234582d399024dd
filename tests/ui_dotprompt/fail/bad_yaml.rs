// The frontmatter is not YAML.
#[derive(promptkit::Prompt)]
#[prompt("bad_yaml")]
struct Greeting {
    name: String,
}

fn main() {}
