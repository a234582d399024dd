// A loop variable read in an include: `s.citty` is a path into the items of `stops`.
#[derive(promptic::PromptValue)]
struct Stop<'a> {
    city: &'a str,
    nights: u8,
}

#[derive(promptic::Prompt)]
#[prompt("bad_loop_field")]
struct Trip<'a> {
    stops: Vec<Stop<'a>>,
}

fn main() {}
