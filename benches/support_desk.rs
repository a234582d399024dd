//! `prompts/checks/support_desk.prompt` derived, built by hand, and loaded at run time:
//! shared by the `dotprompt_render` bench and the `dotprompt_instructions` example.

use promptic::PromptValue;
use promptic::dotprompt::{
    DataArgument, Dotprompt, Message, Object, Part, PromptMetadata, Registry, RenderedPrompt, Value,
};
use std::sync::Arc;

#[derive(PromptValue)]
pub struct Shop<'a> {
    name: &'a str,
    url: &'a str,
}

#[derive(PromptValue)]
pub struct Customer<'a> {
    name: &'a str,
    email: &'a str,
    vip: bool,
}

#[derive(PromptValue)]
pub struct Item {
    name: &'static str,
    qty: u32,
}

#[derive(PromptValue)]
pub struct Order {
    id: String,
    status: &'static str,
    tracking: Option<String>,
    items: Vec<Item>,
}

#[derive(PromptValue)]
pub struct Policy<'a> {
    refunds: &'a str,
    returns: &'a str,
}

#[derive(promptic::Prompt)]
#[prompt("checks/support_desk")]
pub struct SupportDesk<'a> {
    shop: Shop<'a>,
    customer: Customer<'a>,
    orders: Vec<Order>,
    policy: Policy<'a>,
    question: &'a str,
}

const SYSTEM: &str = "You answer as the support desk. Be brief and exact.\n";
const VIP: &str = "This customer is a VIP: answer first, and offer a call.\n";
const NOT_VIP: &str = "Answer within one working day.\n";

fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// The messages and metadata `support_desk.prompt` renders to, built by hand.
pub fn hand_written(
    s: &SupportDesk<'_>,
    history: &[Message],
    metadata: &Arc<PromptMetadata>,
) -> RenderedPrompt {
    let c = &s.customer;
    let mut len = "\nYou answer tickets for ".len() + s.shop.name.len() + " (".len();
    len += s.shop.url.len() + ").\nSign as the team of ".len() + c.name.len() + ", ".len();
    len += s.shop.name.len() + ".\n\nCustomer: ".len() + c.name.len() + " <".len();
    len += c.email.len() + ">\n".len() + if c.vip { VIP.len() } else { NOT_VIP.len() };
    len += "Open orders:\n".len();
    for (i, o) in s.orders.iter().enumerate() {
        len += digits(i) + ". ".len() + o.id.len() + ": ".len();
        for (j, item) in o.items.iter().enumerate() {
            len += item.name.len() + " x".len() + digits(item.qty as usize);
            if j + 1 < o.items.len() {
                len += ", ".len();
            }
        }
        len += "\n   status: ".len() + o.status.len() + "\n".len();
        len += o
            .tracking
            .as_ref()
            .map_or(0, |t| ", tracking ".len() + t.len());
    }
    len += "Refunds: ".len() + s.policy.refunds.len() + ". Returns: ".len();
    len += s.policy.returns.len() + ".\nQuestion:".len() + s.question.len() + ".".len();

    let mut out = String::with_capacity(len);
    out.push_str("\nYou answer tickets for ");
    out.push_str(s.shop.name);
    out.push_str(" (");
    out.push_str(s.shop.url);
    out.push_str(").\nSign as the team of ");
    out.push_str(c.name);
    out.push_str(", ");
    out.push_str(s.shop.name);
    out.push_str(".\n\nCustomer: ");
    out.push_str(c.name);
    out.push_str(" <");
    out.push_str(c.email);
    out.push_str(">\n");
    out.push_str(if c.vip { VIP } else { NOT_VIP });
    out.push_str("Open orders:\n");
    for (i, o) in s.orders.iter().enumerate() {
        push_number(&mut out, i);
        out.push_str(". ");
        out.push_str(&o.id);
        out.push_str(": ");
        for (j, item) in o.items.iter().enumerate() {
            out.push_str(item.name);
            out.push_str(" x");
            push_number(&mut out, item.qty as usize);
            if j + 1 < o.items.len() {
                out.push_str(", ");
            }
        }
        out.push_str("\n   status: ");
        out.push_str(o.status);
        if let Some(t) = &o.tracking {
            out.push_str(", tracking ");
            out.push_str(t);
        }
        out.push('\n');
    }
    out.push_str("Refunds: ");
    out.push_str(s.policy.refunds);
    out.push_str(". Returns: ");
    out.push_str(s.policy.returns);
    out.push_str(".\nQuestion:");
    out.push_str(s.question);
    out.push('.');
    debug_assert_eq!(out.len(), len);

    let mut messages = Vec::with_capacity(history.len() + 2);
    messages.push(Message {
        role: "system".to_owned(),
        content: vec![Part::from_text(SYSTEM)],
        metadata: None,
    });
    for message in history {
        let mut message = message.clone();
        let mut marked = message.metadata.take().unwrap_or_default();
        marked.insert("purpose", Value::from("history"));
        message.metadata = Some(marked);
        messages.push(message);
    }
    messages.push(Message {
        role: "user".to_owned(),
        content: vec![Part::from_text(out)],
        metadata: None,
    });
    // The metadata is the prompt's, shared with every render: a hand-written program
    // would not copy it per render either.
    RenderedPrompt {
        metadata: Arc::clone(metadata),
        messages,
        breakpoints: Vec::new(),
    }
}

/// Writes a number's digits, as a hand-written program would: no `format!`, no UTF-8
/// check of the digits (ASCII pushed as `char`s into a `String` of the right capacity).
fn push_number(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

fn support_values() -> (Vec<Order>, Vec<Message>) {
    let orders = (0..8)
        .map(|i| Order {
            id: format!("A-{}", 100 + i),
            status: if i % 3 == 0 { "shipped" } else { "packing" },
            tracking: (i % 3 == 0).then(|| format!("TRK{i:04}")),
            items: vec![
                Item {
                    name: "kite",
                    qty: 1 + i % 2,
                },
                Item {
                    name: "line",
                    qty: 2,
                },
                Item {
                    name: "spool",
                    qty: 1,
                },
            ],
        })
        .collect();
    let message = |role: &str, text: &str| Message {
        role: role.to_owned(),
        content: vec![Part::from_text(text)],
        metadata: None,
    };
    let history = vec![
        message("user", "My order has not arrived."),
        message("model", "Which order is it?"),
    ];
    (orders, history)
}

/// Everything a render needs, each way: the struct, the history, the run-time prompt and
/// its data, and the metadata (made once, as a hand-written program would keep it).
pub struct Setup {
    pub orders: Vec<Order>,
    pub history: Vec<Message>,
    pub prompt: Dotprompt,
    pub metadata: Arc<PromptMetadata>,
}

impl Setup {
    pub fn new() -> Setup {
        let (orders, history) = support_values();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../prompts");
        let mut registry = Registry::new();
        registry
            .define_partial(
                "signature",
                &std::fs::read_to_string(dir.join("_signature.prompt")).unwrap(),
            )
            .unwrap();
        let prompt = registry
            .parse(&std::fs::read_to_string(dir.join("checks/support_desk.prompt")).unwrap())
            .unwrap();
        let metadata = prompt.render_metadata();
        let mut metadata = metadata;
        metadata.0.remove("input");
        Setup {
            orders,
            history,
            prompt,
            metadata: Arc::new(metadata),
        }
    }

    pub fn desk(&self) -> SupportDesk<'_> {
        SupportDesk {
            shop: Shop {
                name: "Kite Supplies",
                url: "https://kites.test",
            },
            customer: Customer {
                name: "Rosa",
                email: "rosa@example.test",
                vip: true,
            },
            orders: self.orders.iter().map(Order::copy).collect(),
            policy: Policy {
                refunds: "30 days",
                returns: "free",
            },
            question: "  Where is my parcel?  ",
        }
    }

    /// The run-time renderer's data: the same values, as JSON.
    pub fn data(&self, desk: &SupportDesk<'_>) -> DataArgument {
        let mut input = Object::new();
        for (key, value) in [
            ("shop", desk.shop.to_value()),
            ("customer", desk.customer.to_value()),
            ("orders", desk.orders.to_value()),
            ("policy", desk.policy.to_value()),
            ("question", desk.question.to_value()),
        ] {
            input.insert(key, Value::from(value.unwrap()));
        }
        DataArgument {
            input,
            messages: self.history.clone(),
            ..DataArgument::default()
        }
    }
}

impl Order {
    fn copy(&self) -> Order {
        Order {
            id: self.id.clone(),
            status: self.status,
            tracking: self.tracking.clone(),
            items: self
                .items
                .iter()
                .map(|i| Item {
                    name: i.name,
                    qty: i.qty,
                })
                .collect(),
        }
    }
}
