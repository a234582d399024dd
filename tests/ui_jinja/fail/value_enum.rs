// `#[derive(PromptValue)]` reads a struct by field; an enum has none.
#[derive(promptkit::PromptValue)]
enum Region {
    Eu,
    Us,
}

fn main() {}
