// `{{#json}}`: an inline helper used as a block.
#[derive(promptic::Prompt)]
#[prompt("json_block")]
struct Report {
    data: String,
}

fn main() {}
