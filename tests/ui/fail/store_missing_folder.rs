use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/nowhere")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
