//! The run-time Jinja render of the `jinja render` bench's two templates in a loop, for
//! `valgrind --tool=callgrind` (instruction counts do not depend on the machine's load):
//!
//! ```sh
//! cargo build --profile bench -p promptic-benches --example jinja_profile
//! valgrind --tool=callgrind target/release/examples/jinja_profile analyst 2000
//! valgrind --tool=callgrind target/release/examples/jinja_profile analyst 2000 minijinja
//! ```
//!
//! With `minijinja` last, the same templates and values render through minijinja, the
//! bench's anchor, for a ratio of instructions.

mod oracle;

use prompt_runtime::SourceFile;
use prompt_runtime::formats::jinja::{Options, Templates};

const LANGALPHA: Options = Options {
    trim_blocks: true,
    lstrip_blocks: true,
    keep_trailing_newline: true,
};

fn load(dir: &str, entry: &str) -> Templates {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    Templates::load(entry, LANGALPHA, &mut |name: &str| {
        let text = std::fs::read_to_string(root.join(name)).map_err(|_| None)?;
        Ok(SourceFile::new(format!("{dir}/{name}"), text))
    })
    .expect("the templates load")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "analyst".into());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let (templates, entry, values) = match which.as_str() {
        "agent" => (
            load("jinja/agent", "system.md.j2"),
            "system.md.j2",
            serde_json::json!({
                "date": "2026-03-02", "team": "the research desk", "guidance": "detailed",
                "tools": [
                    {"name": "search", "kind": "web", "slow": true},
                    {"name": "read", "kind": "file"},
                    {"name": "quote", "kind": "market"},
                    {"name": "chart", "kind": "plot", "slow": true},
                    {"name": "note", "kind": "memory"},
                ],
                "profile": {"name": "Ada", "prefs": [
                    {"key": "format", "value": "html"}, {"key": "risk", "value": "low"},
                    {"key": "style", "value": "value"}, {"key": "tone", "value": "brief"},
                ]},
            }),
        ),
        _ => (
            load("../prompts", "agents/analyst.md.j2"),
            "agents/analyst.md.j2",
            serde_json::json!({
                "guidance": "detailed", "desk": "the Zürich Rates Desk", "date": "2026-03-02",
                "user": {"name": "Ada Okafor", "locale": "de-CH"},
                "markets": ["Bund futures", "SARON swaps", "EUR/CHF"],
                "tools": [
                    {"name": "search", "kind": "web", "slow": true, "retired": false, "cost": 2},
                    {"name": "filings", "kind": "documents", "slow": false, "retired": false},
                    {"name": "quotes", "kind": "market data", "slow": false, "retired": false, "cost": 1},
                    {"name": "fax", "kind": "legacy", "slow": true, "retired": true},
                    {"name": "chart", "kind": "plot", "slow": true, "retired": false},
                    {"name": "notebook", "kind": "mémoire", "slow": false, "retired": false, "cost": 0},
                ],
                "limits": {"calls": 40, "minutes": 15, "sources": 8},
                "notes": "  cite the SNB first\n", "precision": 3,
            }),
        ),
    };
    if args.next().as_deref() == Some("minijinja") {
        let dir = if which == "agent" {
            "jinja/agent"
        } else {
            "../prompts"
        };
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut env = oracle::environment();
        env.set_loader(move |name| Ok(std::fs::read_to_string(root.join(name)).ok()));
        let template = env.get_template(entry).expect("minijinja loads it");
        let context = oracle::to_minijinja(&values);
        let ours = templates.render(entry, &values).expect("renders");
        assert_eq!(template.render(&context).expect("renders"), ours);
        let mut total = 0;
        for _ in 0..times {
            total += template
                .render(std::hint::black_box(&context))
                .expect("renders")
                .len();
        }
        println!("{total}");
        return;
    }
    let prepared = prompt_runtime::formats::jinja::Value::from(&values);
    let mut total = 0;
    for _ in 0..times {
        total += templates
            .render(entry, std::hint::black_box(&prepared))
            .expect("renders")
            .len();
    }
    println!("{total}");
}
