use promptic::{Identity, Tags};

#[derive(promptic::Prompt)]
#[prompt(family = "fam")]
struct Greeting<'a> {
    who: &'a str,
    note: Option<String>,
}

fn main() {
    let identity = Identity::default();
    let formal: Tags = [("tone", "formal")].into_iter().collect();
    let polite: Tags = [("tone", "polite"), ("lang", "en")].into_iter().collect();
    assert_eq!(Greeting::select(&formal), "fam/formal");
    assert_eq!(Greeting::select(&polite), "fam/formal");
    assert_eq!(Greeting::select(&Tags::new()), "fam/default");
    let g = Greeting { who: "Sam", note: Some("See you.".into()) };
    let out = g.render(&formal, &identity);
    assert_eq!(out.text, "Good day, Sam.\nSee you.");
    assert_eq!(out.path, "prompts/fam/formal.md");
    assert_eq!(out.metadata.title.as_deref(), Some("Formal"));
    assert_eq!(g.render(&Tags::new(), &identity).text, "Hello Sam.");
    assert_eq!(Greeting::MEMBERS.len(), 2);
}
