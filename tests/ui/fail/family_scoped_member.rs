// A scoped member (keep's `scope`) is chosen by the item's id, which the derived `select`
// does not take.
#[derive(promptkit::Prompt)]
#[prompt(family = "fam_scoped")]
struct Supernode {}

fn main() {}
