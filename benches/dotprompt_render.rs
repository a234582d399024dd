//! How fast is the dotprompt front end's run-time render next to the handlebars crate on
//! the same template?
//!
//! The template is a support-desk prompt in dotprompt's style without dotprompt's own
//! helpers (which the handlebars crate lacks): paths, `{{#each}}` with `@index` and
//! `@last`, `{{#if}}`/`{{else}}`, `{{#with}}`, a partial with a hash argument, comments and
//! `~`. Both parse once, outside the timing, render from the same data, and are checked
//! to produce the same text first. promptkit's time includes cutting the text into
//! dotprompt's messages and parts; the handlebars crate only builds the string.

use criterion::{Criterion, criterion_group, criterion_main};
use promptkit::dotprompt::{DataArgument, Registry};
use std::hint::black_box;

const TEMPLATE: &str = r#"{{!-- A support ticket, answered in the shop's voice. --}}
You answer tickets for {{shop.name}} ({{shop.url}}).
{{> signature who=customer.name}}

Customer: {{customer.name}} <{{customer.email}}>
{{#if customer.vip}}
This customer is a VIP: answer first, and offer a call.
{{else}}
Answer within one working day.
{{/if}}
Open orders:
{{#each orders}}
{{@index}}. {{id}}: {{#each items}}{{name}} x{{qty}}{{#unless @last}}, {{/unless}}{{/each}}
   status: {{status}}{{#if tracking}}, tracking {{tracking}}{{/if}}
{{/each}}
{{#with policy}}
Refunds: {{refunds}}. Returns: {{returns}}.
{{/with}}
Question:
  {{~question~}}
.
"#;

const SIGNATURE: &str = "Sign as the team of {{who}}, {{shop.name}}.\n";

fn values() -> serde_json::Value {
    let orders: Vec<serde_json::Value> = (0..8)
        .map(|i| {
            serde_json::json!({
                "id": format!("A-{}", 100 + i),
                "status": if i % 3 == 0 { "shipped" } else { "packing" },
                "tracking": if i % 3 == 0 { serde_json::json!(format!("TRK{i:04}")) } else { serde_json::Value::Null },
                "items": [
                    {"name": "kite", "qty": 1 + i % 2},
                    {"name": "line", "qty": 2},
                    {"name": "spool", "qty": 1},
                ],
            })
        })
        .collect();
    serde_json::json!({
        "shop": {"name": "Kite Supplies", "url": "https://kites.test"},
        "customer": {"name": "Rosa", "email": "rosa@example.test", "vip": true},
        "orders": orders,
        "policy": {"refunds": "30 days", "returns": "free"},
        "question": "  Where is my parcel?  ",
    })
}

fn dotprompt_render(criterion: &mut Criterion) {
    let mut registry = Registry::new();
    registry.define_partial("signature", SIGNATURE).unwrap();
    let prompt = registry.parse(TEMPLATE).unwrap();
    let data: DataArgument =
        serde_json::from_value(serde_json::json!({"input": values()})).unwrap();

    let mut handlebars = handlebars::Handlebars::new();
    handlebars.register_escape_fn(handlebars::no_escape);
    handlebars
        .register_template_string("support", TEMPLATE)
        .unwrap();
    handlebars.register_partial("signature", SIGNATURE).unwrap();
    let values = values();

    // The same text both ways (one text part in one user message for promptkit).
    let ours = prompt.render(&data).unwrap();
    let theirs = handlebars.render("support", &values).unwrap();
    assert_eq!(ours.messages.len(), 1);
    assert_eq!(ours.messages[0].content[0].text(), Some(theirs.as_str()));

    let mut group = criterion.benchmark_group("dotprompt_render");
    group.bench_function("runtime", |b| {
        b.iter(|| black_box(prompt.render(black_box(&data)).unwrap()))
    });
    group.bench_function("handlebars", |b| {
        b.iter(|| black_box(handlebars.render("support", black_box(&values)).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, dotprompt_render);
criterion_main!(benches);
