//! The support-ticket template of the run-time comparison with the handlebars crate, its
//! partial and its data: shared by `dotprompt_render.rs` (criterion) and
//! `dotprompt_handlebars.rs` (instructions).

pub const TEMPLATE: &str = r#"{{!-- A support ticket, answered in the shop's voice. --}}
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

pub const SIGNATURE: &str = "Sign as the team of {{who}}, {{shop.name}}.\n";

pub fn values() -> serde_json::Value {
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
