// A misspelt name inside an included file is reported in that file.
#[derive(promptic::Prompt)]
#[prompt("errors/unknown_name_in_include")]
struct Page {
    user_name: &'static str,
}

fn main() {}
