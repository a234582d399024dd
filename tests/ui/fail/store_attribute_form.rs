use promptic::PromptStore;

#[derive(PromptStore)]
#[store(stores)]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
