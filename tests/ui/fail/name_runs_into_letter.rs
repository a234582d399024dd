// `$dayïve` reads as `$day` then `ïve` (Python's rule): in compiled code, an error.
#[derive(promptic::Prompt)]
#[prompt("run_on")]
struct RunOn<'a> {
    day: &'a str,
}

fn main() {}
