// A role that is not one of didactyl's.
#[derive(promptkit::Prompt)]
#[prompt("didactyl_typo")]
struct DidiTypo<'a> {
    question: &'a str,
}

fn main() {}
