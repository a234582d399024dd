#[derive(promptic::Prompt)]
#[prompt("day")]
enum Day {
    Monday,
}

fn main() {}
