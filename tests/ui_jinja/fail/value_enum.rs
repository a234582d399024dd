// `#[derive(PromptValue)]` reads a struct by field; an enum has none.
#[derive(promptic::PromptValue)]
enum Region {
    Eu,
    Us,
}

fn main() {}
