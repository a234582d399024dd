use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/domain")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
