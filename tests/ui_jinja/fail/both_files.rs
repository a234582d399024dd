// `prompts/both.md` and `prompts/both.md.j2`: the name must say which file it is.
#[derive(promptic::Prompt)]
#[prompt("both")]
struct Page<'a> {
    name: &'a str,
}

fn main() {}
