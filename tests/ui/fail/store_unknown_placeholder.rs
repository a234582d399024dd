use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/typo")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
