#[derive(promptic::Prompt)]
#[prompt("note")]
struct Note<'a> {
    note: Option<&'a str>,
}

fn main() {}
