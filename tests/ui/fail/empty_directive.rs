// Found by fuzzing: `{%}` once made the derive panic (the `%}` overlaps the `{%`).
#[derive(promptic::Prompt)]
#[prompt("empty_directive")]
struct EmptyDirective<'a> {
    day: &'a str,
}

fn main() {}
