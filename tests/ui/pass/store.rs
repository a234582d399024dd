use promptic::PromptStore;
use promptic::store::Store;

#[derive(PromptStore)]
#[store("stores/good")]
struct Persona;

fn main() {
    assert_eq!(Persona::SYSTEM_RULE, "system_rule");
    assert_eq!(Persona::OUTPUT_FORMAT, "output-format");
    assert_eq!(Persona::PROMPT_IDS, ["system_rule", "output-format"]);
    let store = Store::builder(Persona::defaults()).open().unwrap();
    assert_eq!(
        store.build_system_prompt("default", &[]).unwrap(),
        "You are Luna.\n\nAnswer in plain text."
    );
}
