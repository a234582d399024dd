// A keep agent prompt (`"placeholders": "keep"`) is rendered at run time; the derive
// refuses it rather than render its `{text}` verbatim.
#[derive(promptkit::Prompt)]
#[prompt("keep_agent")]
struct Ask<'a> {
    text: &'a str,
}

fn main() {}
