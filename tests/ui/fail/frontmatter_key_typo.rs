// A frontmatter key one edit from a key promptic reads would be kept in `extra` unread;
// other unknown keys (`owner`) are extras as written.
#[derive(promptic::Prompt)]
#[prompt("frontmatter_key_typo")]
struct KeyTypo<'a> {
    day: &'a str,
}

fn main() {}
