#[derive(promptkit::Prompt)]
#[prompt("day")]
enum Day {
    Monday,
}

fn main() {}
