// `title` is a key three times in `book.prompt` (the input's, the author's, the
// output's): the error points at the author's.
#[derive(promptic::PromptValue)]
struct Author {
    name: String,
}

#[derive(promptic::Prompt)]
#[prompt("book")]
struct Book {
    title: String,
    author: Author,
}

fn main() {}
