// The derive renders what the run-time `Dotprompt::render` renders for the same values:
// a partial, an optional property given and not, a list of objects, a nested object.
use promptic::dotprompt::{DataArgument, Registry};

#[derive(promptic::PromptValue)]
struct Stop<'a> {
    city: &'a str,
    days: u32,
}

#[derive(promptic::PromptValue)]
struct Guide {
    name: String,
    languages: Vec<String>,
}

#[derive(promptic::Prompt)]
#[prompt("trip")]
struct Trip<'a> {
    traveller: &'a str,
    nights: i64,
    flexible: bool,
    budget: Option<f64>,
    home: String,
    stops: &'a [Stop<'a>],
    guide: Guide,
}

#[derive(promptic::Prompt)]
#[prompt("plain")]
struct Plain {
    name: String,
    age: Option<u32>,
}

fn runtime(name: &str, input: serde_json::Value) -> promptic::dotprompt::RenderedPrompt {
    let dir = std::path::Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let mut registry = Registry::new();
    registry
        .define_partial_file(
            "persona",
            "prompts/_persona.prompt",
            &std::fs::read_to_string(dir.join("_persona.prompt")).unwrap(),
        )
        .unwrap();
    let prompt = registry
        .parse_file(
            &format!("prompts/{name}.prompt"),
            &std::fs::read_to_string(dir.join(format!("{name}.prompt"))).unwrap(),
        )
        .unwrap();
    let data: DataArgument = serde_json::from_value(serde_json::json!({ "input": input })).unwrap();
    prompt.render(&data).unwrap()
}

fn main() {
    let stops = [Stop { city: "Porto", days: 2 }, Stop { city: "Évora", days: 1 }];
    for budget in [Some(1200.5), None] {
        let trip = Trip {
            traveller: "Sam",
            nights: 3,
            flexible: budget.is_some(),
            budget,
            home: "Lyon".to_owned(),
            stops: &stops,
            guide: Guide { name: "Rui".to_owned(), languages: vec!["pt".to_owned(), "en".to_owned()] },
        };
        let derived = trip.render().unwrap();
        let mut input = serde_json::json!({
            "traveller": "Sam", "nights": 3, "flexible": budget.is_some(), "home": "Lyon",
            "stops": [{"city": "Porto", "days": 2}, {"city": "Évora", "days": 1}],
            "guide": {"name": "Rui", "languages": ["pt", "en"]},
        });
        if let Some(b) = budget {
            input["budget"] = serde_json::json!(b);
        }
        assert_eq!(derived, runtime("trip", input));
        assert_eq!(derived.messages.len(), 2);
        let user = derived.messages[1].content[0].text().unwrap();
        assert!(user.contains("- Évora (1 days)"), "{user}");
        assert_eq!(user.contains("Budget: 1200.5."), budget.is_some(), "{user}");
        assert_eq!(derived.metadata.model(), Some("demo/model"));
    }
    let schema: serde_json::Value = serde_json::from_str(Trip::INPUT_SCHEMA).unwrap();
    assert_eq!(schema["properties"]["stops"]["type"], "array");
    assert!(Trip::OUTPUT_SCHEMA.contains("\"plan\""));
    assert_eq!(Plain::OUTPUT_SCHEMA, "");

    let plain = Plain { name: "Ada".to_owned(), age: Some(36) };
    let rendered = plain.render().unwrap();
    assert_eq!(rendered, runtime("plain", serde_json::json!({"name": "Ada", "age": 36})));
    assert_eq!(rendered.messages[0].content[0].text(), Some("Hello Ada, 36."));
    let plain = Plain { name: "Ada".to_owned(), age: None };
    assert_eq!(plain.render().unwrap().messages[0].content[0].text(), Some("Hello Ada."));
}
