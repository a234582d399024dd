// `title` is a key three times in `book.prompt` (the input's, the author's, the
// output's): the error points at the author's.
#[derive(promptkit::PromptValue)]
struct Author {
    name: String,
}

#[derive(promptkit::Prompt)]
#[prompt("book")]
struct Book {
    title: String,
    author: Author,
}

fn main() {}
