//! The promptic book, one module per chapter.
//!
//! The chapters live in `docs/src/` (an mdBook) and are included here as module
//! documentation, so that `cargo test` compiles and runs every Rust example in them: the
//! book cannot drift from the code. Read them here on docs.rs, or build the book with
//! `mdbook build docs`.

macro_rules! chapters {
    ($($(#[$attr:meta])* $name:ident => $file:literal;)*) => {
        $(
            $(#[$attr])*
            #[doc = include_str!(concat!("../docs/src/", $file))]
            pub mod $name {}
        )*
    };
}

chapters! {
    introduction => "introduction.md";
    getting_started => "getting-started.md";
    language => "language.md";
    identity_and_templates => "identity-and-templates.md";
    chat => "chat.md";
    guidance_and_caching => "guidance-and-caching.md";
    jinja => "jinja.md";
    dotprompt => "dotprompt.md";
    clients => "clients.md";
    families => "families.md";
    stores => "stores.md";
    formats => "formats.md";
    cli => "cli.md";
    hot_reload => "hot-reload.md";
    limits => "limits.md";
    performance => "performance.md";
    compatibility => "compatibility.md";
    migrating => "migrating.md";
}
