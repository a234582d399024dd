// A LangAlpha-shaped prompt (an include, a guidance fence, an optional block, a loop with a
// filter and `else`, a map's `items()`, mid-line `if`s, `default`, `join`, `upper`) renders
// through the derive to the same bytes as through the run-time renderer, at both levels and
// with the optional values given or not.
use promptic::{Guidance, PromptValue};
use std::collections::BTreeMap;

#[derive(PromptValue)]
struct Profile {
    name: String,
    region: String,
}

#[derive(PromptValue)]
struct Ticker<'a> {
    ticker: &'a str,
    active: bool,
    note: Option<&'a str>,
}

#[derive(PromptValue)]
struct Tool {
    about: String,
    cost: u32,
}

#[derive(promptic::Prompt)]
#[prompt("agent")]
struct Agent<'a> {
    agent_name: &'a str,
    user_profile: Profile,
    current_date: &'a str,
    guidance: Guidance,
    subagent_summary: Option<String>,
    sources: Vec<&'a str>,
    watchlist: &'a [Ticker<'a>],
    tools: BTreeMap<String, Tool>,
}

fn main() {
    let dir = std::path::Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let project = promptic::load::Project::open(&dir, "prompts").unwrap();
    let (file, templates) = project.load_jinja("agent").unwrap();
    let watchlist = [
        Ticker { ticker: "acme", active: true, note: Some("earnings on Friday") },
        Ticker { ticker: "bolt", active: false, note: None },
        Ticker { ticker: "cora", active: true, note: None },
    ];
    let mut tools = BTreeMap::new();
    tools.insert("search".to_owned(), Tool { about: "finds filings".into(), cost: 1 });
    tools.insert("sql".to_owned(), Tool { about: "queries prices".into(), cost: 3 });
    let mut renders = 0;
    for guidance in [Guidance::Detailed, Guidance::Lean] {
        for summary in [None, Some("Margins fell two points.".to_owned())] {
            for (watch, sources, region) in [
                (&watchlist[..], vec!["10-K", "call notes"], "EU"),
                (&watchlist[1..2], vec![], "US"),
            ] {
                let agent = Agent {
                    agent_name: "Quill",
                    user_profile: Profile { name: "Ines".into(), region: region.into() },
                    current_date: "2026-03-01",
                    guidance,
                    subagent_summary: summary.clone(),
                    sources: sources.clone(),
                    watchlist: watch,
                    tools: BTreeMap::from_iter(
                        tools.iter().map(|(k, v): (&String, &Tool)| {
                            (k.clone(), Tool { about: v.about.clone(), cost: v.cost })
                        }),
                    ),
                };
                let compiled = agent.render().unwrap();
                let mut values = serde_json::json!({
                    "agent_name": "Quill",
                    "user_profile": {"name": "Ines", "region": region},
                    "current_date": "2026-03-01",
                    "guidance": guidance.as_str(),
                    "sources": sources,
                    "watchlist": watch.iter().map(|t| {
                        let mut v = serde_json::json!({"ticker": t.ticker, "active": t.active});
                        if let Some(note) = t.note {
                            v["note"] = note.into();
                        }
                        v
                    }).collect::<Vec<_>>(),
                    "tools": {
                        "search": {"about": "finds filings", "cost": 1},
                        "sql": {"about": "queries prices", "cost": 3},
                    },
                });
                if let Some(s) = &summary {
                    values["subagent_summary"] = s.as_str().into();
                }
                let run_time = templates.render(&file, &values).unwrap();
                assert_eq!(compiled.text, run_time);
                assert_eq!(compiled.path, "prompts/agent.md.j2");
                assert_eq!(Agent::PATH, "prompts/agent.md.j2");
                assert_eq!(compiled.text.contains("## Working method"), guidance == Guidance::Detailed);
                assert_eq!(compiled.text.contains("Margins fell"), summary.is_some());
                renders += 1;
            }
        }
    }
    assert_eq!(renders, 8);
    // What the template says, spot-checked against hand-written bytes.
    let agent = Agent {
        agent_name: "Quill",
        user_profile: Profile { name: "Ines".into(), region: "EU".into() },
        current_date: "2026-03-01",
        guidance: Guidance::Lean,
        subagent_summary: None,
        sources: vec!["10-K"],
        watchlist: &watchlist,
        tools,
    };
    let tools_again: BTreeMap<String, Tool> = agent
        .tools
        .iter()
        .map(|(k, v)| (k.clone(), Tool { about: v.about.clone(), cost: v.cost }))
        .collect();
    // `prompt!` reads the same prompt with the arguments' own types: the same bytes.
    let inline = promptic::prompt!(
        "agent",
        agent_name = "Quill",
        user_profile = Profile { name: "Ines".into(), region: "EU".into() },
        current_date = "2026-03-01",
        guidance = Guidance::Lean,
        subagent_summary = None::<&str>,
        sources = ["10-K"],
        watchlist = &watchlist[..],
        tools = tools_again,
    );
    assert_eq!(inline.render().unwrap().text, agent.render().unwrap().text);
    // It rendered with the compiled code, where the arguments are.
    assert_eq!(inline.__promptic_compiled(), Some(agent.render().unwrap().text.as_str()));
    assert_eq!(
        agent.render().unwrap().text,
        "You are Quill, a research assistant for Ines.\n\
         Today is 2026-03-01.\n\n\
         ## Tools\n\
         - `search`: finds filings\n\
         - `sql`: queries prices (costly)\n\
         Sources: 10-K\n\n\
         ## Watchlist\n\
         - 1. ACME: earnings on Friday\n\
         - 2. CORA\n\
         Mode: European hours.\n"
    );
}
