use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/registry")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
