// A role that is not one of didactyl's.
#[derive(promptic::Prompt)]
#[prompt("didactyl_typo")]
struct DidiTypo<'a> {
    question: &'a str,
}

fn main() {}
