// Several members without rules (keep's `analyze/default` and `analyze/incremental`): the
// first by name is the default; each member is a constant, rendered by name.
#[derive(promptic::Prompt)]
#[prompt(family = "fam_two_defaults")]
struct Analyze<'a> {
    who: &'a str,
}

fn main() {
    let identity = promptic::Identity::from_json("{}").unwrap();
    let prompt = Analyze { who: "Ana" };
    assert_eq!(Analyze::select(&promptic::Tags::new()), "fam_two_defaults/a");
    assert_eq!(Analyze::B.name, "fam_two_defaults/b");
    assert!(Analyze::A.is_default() && Analyze::B.is_default());
    let b = prompt.render_member(&Analyze::B, &identity).unwrap();
    assert_eq!(b.text, "B Ana");
    assert_eq!(prompt.render(&promptic::Tags::new(), &identity).text, "A Ana");
    let other = promptic::family::CompiledMember { name: "elsewhere/b", path: "", rules: &[] };
    assert!(prompt.render_member(&other, &identity).is_none());
}
