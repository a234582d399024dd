use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/manifest")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
