//! Instructions per render of the support-ticket template (`support_ticket.rs`), counted
//! by callgrind: the dotprompt front end's run-time render against the handlebars crate
//! with its context built once, deterministic where `dotprompt_render.rs`'s times are not.
//! Runs one way N times:
//!
//! ```sh
//! cargo build --release -p promptic-benches --example dotprompt_handlebars
//! for way in none runtime handlebars_prebuilt; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$way \
//!     target/release/examples/dotprompt_handlebars $way 2000 2>&1 | grep Collected
//! done
//! ```
//!
//! `none` does the set-up alone; a way's instructions per render are its total less
//! `none`'s, over N. See `README.md` for the figures.

mod support_ticket;

use promptic::dotprompt::{DataArgument, Registry};
use std::hint::black_box;
use support_ticket::{SIGNATURE, TEMPLATE, values};

fn main() {
    let mut args = std::env::args().skip(1);
    let way = args.next().unwrap_or_else(|| "runtime".to_owned());
    let n: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let mut registry = Registry::new();
    registry
        .define_partial("signature", SIGNATURE)
        .expect("the partial parses");
    let prompt = registry.parse(TEMPLATE).expect("the template parses");
    let data: DataArgument =
        serde_json::from_value(serde_json::json!({"input": values()})).expect("a data argument");
    let mut handlebars = handlebars::Handlebars::new();
    handlebars.register_escape_fn(handlebars::no_escape);
    handlebars
        .register_template_string("support", TEMPLATE)
        .expect("handlebars parses the template");
    handlebars
        .register_partial("signature", SIGNATURE)
        .expect("handlebars parses the partial");
    let values = values();
    let context = handlebars::Context::wraps(&values).expect("a context");
    // The same text both ways, checked once, outside the count's loop.
    let ours = prompt.render(&data).expect("renders");
    let theirs = handlebars
        .render_with_context("support", &context)
        .expect("handlebars renders");
    assert_eq!(ours.messages[0].content[0].text(), Some(theirs.as_str()));
    for _ in 0..n {
        match way.as_str() {
            "none" => {}
            "runtime" => {
                black_box(prompt.render(black_box(&data)).ok());
            }
            "handlebars_prebuilt" => {
                black_box(
                    handlebars
                        .render_with_context("support", black_box(&context))
                        .ok(),
                );
            }
            other => panic!("unknown way `{other}`: none, runtime or handlebars_prebuilt"),
        }
    }
}
