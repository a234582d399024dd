// A loop over a map goes over its keys, which are text: `name.first` reads a field of text.
use std::collections::BTreeMap;

#[derive(promptic::Prompt)]
#[prompt("errors/loop_over_map_keys")]
struct Board {
    scores: BTreeMap<String, u32>,
}

fn main() {}
