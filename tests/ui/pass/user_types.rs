// A user type named like std's text types goes through `Display` when its path says it
// is not std's.
mod my {
    pub struct String(pub u32);
    impl std::fmt::Display for String {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "#{}", self.0)
        }
    }
}

#[derive(promptic::Prompt)]
#[prompt("user_types")]
struct UserTypes {
    v: my::String,
    o: Option<my::String>,
}

#[derive(promptic::Prompt)]
#[prompt("user_types")]
struct StdTypes<'a> {
    v: std::borrow::Cow<'a, str>,
    o: Option<std::rc::Rc<str>>,
}

fn main() {
    let identity = promptic::Identity::default();
    let out = UserTypes { v: my::String(1), o: Some(my::String(2)) }.render(&identity);
    assert_eq!(out.text, "Value #1\nmaybe #2");
    let out = StdTypes { v: "a".into(), o: None }.render(&identity);
    assert_eq!(out.text, "Value a");
}
