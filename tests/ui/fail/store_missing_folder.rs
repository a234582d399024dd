use promptkit::PromptStore;

#[derive(PromptStore)]
#[store("stores/nowhere")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
