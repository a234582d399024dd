use promptic::PromptStore;

#[derive(PromptStore)]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
