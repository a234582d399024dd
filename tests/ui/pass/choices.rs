use promptic::Identity;

#[derive(promptic::Prompt)]
#[prompt("guidance")]
struct Guidance<'a> {
    topic: &'a str,
    #[prompt(one_of("lean", "detailed"))]
    level: &'a str,
}

fn main() {
    let identity = Identity::default();
    let detailed = Guidance { topic: "tides", level: "detailed" }.render(&identity);
    assert_eq!(detailed.text, "Answer the question about tides.\nExplain each step and cite sources.");
    let lean = Guidance { topic: "tides", level: "lean" }.render(&identity);
    assert_eq!(lean.text, "Answer the question about tides.\nBe brief.");
}
