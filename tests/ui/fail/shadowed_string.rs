// A type of one's own named `String`, used bare, is not taken for std's.
struct String(u32);

impl std::fmt::Display for String {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(promptic::Prompt)]
#[prompt("day")]
struct Day {
    day: String,
}

fn main() {}
