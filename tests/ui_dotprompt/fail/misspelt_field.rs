// A misspelt field: the error shows the field, where the prompt declares its input
// schema, and the closest property.
#[derive(promptic::PromptValue)]
struct Author {
    name: String,
    title: Option<String>,
}

#[derive(promptic::Prompt)]
#[prompt("book")]
struct Book {
    titel: String,
    author: Author,
}

fn main() {}
