// `scores[0]` where `scores` is a map: a map's value is read by its key, not by a number.
use std::collections::BTreeMap;

#[derive(promptic::Prompt)]
#[prompt("errors/index_of_map")]
struct Board {
    scores: BTreeMap<String, u32>,
}

fn main() {}
