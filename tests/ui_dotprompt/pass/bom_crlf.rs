// A BOM and CRLF line ends: the derive renders what the run-time reader renders from the
// same bytes.
use promptic::dotprompt::{DataArgument, Registry};

#[derive(promptic::Prompt)]
#[prompt("bom_crlf")]
struct Greeting<'a> {
    name: &'a str,
}

fn main() {
    let dir = std::path::Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let mut registry = Registry::new();
    registry
        .define_partial("crlf_part", &std::fs::read_to_string(dir.join("_crlf_part.prompt")).unwrap())
        .unwrap();
    let prompt = registry
        .parse(&std::fs::read_to_string(dir.join("bom_crlf.prompt")).unwrap())
        .unwrap();
    let data: DataArgument = serde_json::from_value(serde_json::json!({"input": {"name": "Ada"}})).unwrap();
    let derived = Greeting { name: "Ada" }.render().unwrap();
    assert_eq!(derived, prompt.render(&data).unwrap());
    let text = derived.messages[0].content[0].text().unwrap();
    assert!(text.contains("Hello Ada."), "{text:?}");
}
