// A store's domain file linked to the build's environment: never read, never embedded.
use promptic::PromptStore;

#[derive(PromptStore)]
#[store("stores/environ")]
struct Persona;

fn main() {
    let _ = Persona::defaults();
}
