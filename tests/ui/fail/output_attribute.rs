#[derive(promptic::Prompt)]
#[prompt("greeting", outptu = String)]
struct Greeting<'a> {
    day: &'a str,
    note: Option<&'a str>,
}

fn main() {
    let _ = Greeting { day: "Friday", note: None };
}
