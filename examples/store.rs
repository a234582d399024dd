//! A PromptEngine store embedded in the binary: `examples/persona_prompts/` was checked
//! when this example was built (a misspelt `{{char_nme}}` stops the build with the JSON
//! file's line and column), and is rendered here without reading the disk.
//!
//! Run it with `cargo run --example store`.

use promptic::PromptStore;
use promptic::store::{Store, StoreError};

#[derive(PromptStore)]
#[store("examples/persona_prompts")]
struct Persona;

fn main() -> Result<(), StoreError> {
    let store = Store::builder(Persona::defaults())
        .static_value("char_name", "Luna")
        .computed("current_date", || "Friday, 24 January 2026".to_owned())
        .open()?;

    println!("=== system prompt (default)");
    println!(
        "{}",
        store.build_system_prompt("default", &[("mood", "warm")])?
    );

    println!("\n=== {} alone, experimental", Persona::SYSTEM_RULE);
    println!(
        "{}",
        store.resolve_prompt(Persona::SYSTEM_RULE, "experimental", &[])?
    );

    println!("\n=== dialog injections (experimental)");
    for message in store.get_dialog_injections("experimental", &[])? {
        println!("{}: {}", message.role, message.content);
    }

    // Edits while in use (this store has no user folder, so they stay in memory): each is
    // checked first, and a refused one changes nothing.
    println!("\n=== edited: a user placeholder, a new text, a new order");
    store.add_placeholder("nickname", "Lu")?;
    store.update_prompt(
        Persona::SYSTEM_RULE,
        "default",
        "You are {{char_name}} ({{nickname}} to friends). Stay in character.",
    )?;
    store.reorder_prompts(&[Persona::TIME_SENSE])?;
    println!(
        "{}",
        store.build_system_prompt("default", &[("mood", "warm")])?
    );
    if let Err(refused) = store.update_prompt(Persona::SYSTEM_RULE, "default", "Hi {{nickame}}") {
        println!("\n=== refused\n{refused}");
    }
    store.factory_reset()?;
    Ok(())
}
