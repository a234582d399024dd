// A frontmatter key one edit from a key promptkit reads would be kept in `extra` unread;
// other unknown keys (`owner`) are extras as written.
#[derive(promptkit::Prompt)]
#[prompt("frontmatter_key_typo")]
struct KeyTypo<'a> {
    day: &'a str,
}

fn main() {}
