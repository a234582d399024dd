use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/badjson")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
