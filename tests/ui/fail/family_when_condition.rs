// keep's `_when` condition (a CEL expression over the item) is not evaluated: a member
// that has one is refused at the key, rather than chosen without it.
#[derive(promptic::Prompt)]
#[prompt(family = "fam_when")]
struct Summarize {}

fn main() {}
