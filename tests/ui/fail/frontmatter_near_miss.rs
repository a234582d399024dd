// A JSON object at the top that breaks the frontmatter rule (first line exactly `{`,
// closing line exactly `}`) would reach the model as text: an error in compiled prompts.
#[derive(promptic::Prompt)]
#[prompt("frontmatter_near_miss")]
struct NearMiss<'a> {
    day: &'a str,
}

fn main() {}
