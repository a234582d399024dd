// `my-notes.md` and `my_notes.md` would both be the constant `MY_NOTES`.
#[derive(promptic::Prompt)]
#[prompt(family = "fam_const_clash")]
struct Notes {}

fn main() {}
