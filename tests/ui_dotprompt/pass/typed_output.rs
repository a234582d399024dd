// A prompt tied to the type its answer is read into: `output_schema()` is the schema the
// file declares (dotprompt's `output.schema`), else the type's own; `parse_output` takes
// bare JSON, a fenced block or JSON among prose, and says where an answer does not fit.
#[derive(Debug, PartialEq, serde::Deserialize)]
struct Answer {
    reply: String,
}

#[derive(promptic::Prompt)]
#[prompt("ticket", output = Answer)]
struct Ticket<'a> {
    customer: &'a str,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Greeting {
    words: Vec<String>,
    polite: bool,
}

#[derive(promptic::Prompt)]
#[prompt("plain", output = Greeting)]
struct Plain<'a> {
    name: &'a str,
    age: Option<i64>,
}

// An output type that derives `PromptValue` is checked against the declared schema.
#[derive(Debug, serde::Deserialize, promptic::PromptValue)]
struct Triaged {
    severity: String,
    summary: String,
    tags: Option<Vec<String>>,
}

#[derive(promptic::Prompt)]
#[prompt("triage", output = Triaged)]
struct Triage<'a> {
    ticket: &'a str,
}

fn main() {
    let triaged = Triage::parse_output(r#"{"severity": "high", "summary": "down"}"#).unwrap();
    assert_eq!((triaged.severity.as_str(), triaged.tags), ("high", None));
    let _ = Triage { ticket: "The router is down." }.render().unwrap();

    let declared: serde_json::Value = serde_json::from_str(Ticket::OUTPUT_SCHEMA).unwrap();
    assert_eq!(Ticket::output_schema(), declared);
    let answer = Ticket::parse_output("Done:\n```json\n{\"reply\": \"on its way\"}\n```").unwrap();
    assert_eq!(answer, Answer { reply: "on its way".into() });
    let error = Ticket::parse_output("{\"replied\": true}").unwrap_err();
    assert!(error.to_string().contains("missing field `reply`"), "{error}");
    let _ = Ticket { customer: "Ada" }.render().unwrap();

    // No schema in the file: the type's, from schemars.
    let schema = Plain::output_schema();
    assert_eq!(schema["properties"]["words"]["type"], "array");
    assert_eq!(schema["required"], serde_json::json!(["words", "polite"]));
    let greeting = Plain::parse_output("Sure. {\"words\": [\"hi\"], \"polite\": true} Bye.").unwrap();
    assert!(greeting.polite);
    let _ = Plain { name: "Bo", age: None }.render().unwrap();
}
