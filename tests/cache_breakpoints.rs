//! Cache breakpoints: where a prompt's cacheable prefix ends, from the file to the
//! request. The compiled render and the run-time one agree on where each falls, and the
//! Anthropic body marks exactly the prefix before it.

use promptic::anthropic::MessagesRequest;
use promptic::chat::{CacheBreakpoint, Message};
use promptic::load::Project;
use promptic::{Guidance, Identity, Prompt};
use std::collections::HashMap;
use std::path::Path;

#[derive(Prompt)]
#[prompt("support_agent")]
struct SupportAgent<'a> {
    guidance: Guidance,
    plan: &'a str,
    turns: Vec<Message>,
    question: &'a str,
}

/// The prefix: the lines before the breakpoint, up to the end of the last one (the line
/// break after it starts the next block).
const RULES: &str = "You answer questions about the Acme R7 router from its manual, and nothing else.\n\
                     Quote the manual's section number with every answer.\n\
                     When the manual does not say, say so and offer to open a ticket.";

fn agent(plan: &'static str, question: &'static str) -> SupportAgent<'static> {
    SupportAgent {
        guidance: Guidance::Detailed,
        plan,
        turns: vec![
            Message::user("Hi"),
            Message::assistant("Hello, how can I help?"),
        ],
        question,
    }
}

#[test]
fn the_prefix_ends_at_the_breakpoint_and_is_the_same_for_every_request() {
    let identity = Identity::default();
    let chat = agent("Pro", "How do I reset it?").messages(&identity);
    assert_eq!(
        chat.breakpoints,
        [CacheBreakpoint {
            message: 0,
            offset: RULES.len()
        }]
    );
    let system = chat.messages[0].text();
    assert_eq!(&system[..RULES.len()], RULES);
    assert_eq!(&system[RULES.len()..], "\nThe customer is on the Pro plan.");
    let other = agent("Basic", "Why is the light red?").messages(&identity);
    assert_eq!(other.breakpoints, chat.breakpoints);
    assert_eq!(
        other.messages[0].text()[..RULES.len()],
        system[..RULES.len()]
    );
}

#[test]
fn the_run_time_renderer_puts_it_in_the_same_place() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let prompt = project.check_inferred("support_agent").unwrap();
    let values = HashMap::from([
        ("plan".to_owned(), "Pro".to_owned()),
        ("question".to_owned(), "How do I reset it?".to_owned()),
        ("guidance".to_owned(), "detailed".to_owned()),
    ]);
    let compiled = agent("Pro", "How do I reset it?").messages(&Identity::default());
    let turns = &compiled.messages[1..3];
    let run_time = prompt
        .messages(&values, turns, &Identity::default())
        .unwrap();
    assert_eq!(run_time.messages, compiled.messages);
    assert_eq!(run_time.breakpoints, compiled.breakpoints);
}

#[test]
fn the_anthropic_body_marks_the_block_that_ends_the_prefix() {
    let chat = agent("Pro", "How do I reset it?").messages(&Identity::default());
    let body = serde_json::to_value(MessagesRequest::try_from(&chat).unwrap()).unwrap();
    assert_eq!(
        body["system"],
        serde_json::json!([
            {"type": "text", "text": RULES, "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "\nThe customer is on the Pro plan."}
        ])
    );
    assert_eq!(body["messages"].as_array().unwrap().len(), 3);
    assert!(!body["messages"].to_string().contains("cache_control"));
}

#[test]
fn a_breakpoint_that_ends_a_message_marks_that_message() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let file = promptic::load::PromptFile::from_text(
        "prompts/ends.md",
        "Rules.\n{% cache_breakpoint %}\n{% user example %}\nAn example.\n{% cache_breakpoint %}\n{% user question %}\n{% cache_breakpoint %}\n$question",
    )
    .unwrap();
    let prompt = project.check_loaded("ends", file).unwrap();
    let values = HashMap::from([("question".to_owned(), "Why?".to_owned())]);
    let chat = prompt.messages(&values, &[], &Identity::default()).unwrap();
    // The first mark ends the system text, the second the example; the third, at the
    // start of the question, is the second's place again.
    assert_eq!(chat.messages.len(), 3);
    assert_eq!(
        chat.breakpoints,
        [
            CacheBreakpoint {
                message: 0,
                offset: 6
            },
            CacheBreakpoint {
                message: 1,
                offset: 11
            }
        ]
    );
}

#[derive(Prompt)]
#[prompt("code_review")]
struct CodeReview<'a> {
    repository: &'a str,
    diff: &'a str,
}

#[test]
fn a_jinja_breakpoint_falls_where_the_comment_is_compiled_and_at_run_time() {
    let review = CodeReview {
        repository: "acme/router",
        diff: "+ retries = 3",
    };
    let content = review.render().unwrap();
    let rules = "You review pull requests. Report bugs first, then anything that makes the code harder to read.\n\
                 For each finding, quote the line and say why it is a problem.\n";
    assert_eq!(content.breakpoints, [rules.len()]);
    assert_eq!(&content.text[..rules.len()], rules);
    assert!(
        review.__promptic_compiled().is_some(),
        "the compiled render ran"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").unwrap();
    let (file, templates) = project.load_jinja("code_review").unwrap();
    let values = serde_json::json!({"repository": "acme/router", "diff": "+ retries = 3"});
    let run_time = templates.render_with_breakpoints(&file, &values).unwrap();
    assert_eq!(
        run_time,
        (content.text.clone(), content.breakpoints.clone())
    );
    let chat = content.to_chat(promptic::Role::System);
    assert_eq!(
        chat.breakpoints,
        [CacheBreakpoint {
            message: 0,
            offset: rules.len()
        }]
    );
}

#[derive(Prompt)]
#[prompt("help_desk")]
struct HelpDesk<'a> {
    plan: &'a str,
    vip: Option<bool>,
    question: &'a str,
}

/// The system text of `help_desk.prompt` before its `{{cacheBreakpoint}}`: the role's
/// line break, and the rules (the breakpoint's own line is gone).
const DESK_RULES: &str = "\nYou answer questions about the Acme R7 router from its manual, and nothing else.\n\
                          Quote the manual's section number with every answer.\n";
const DESK_VIP: &str = "The customer is a VIP: offer a call back at the end.\n";

fn desk_history() -> Vec<promptic::dotprompt::Message> {
    use promptic::dotprompt::{Message, Part};
    let message = |role: &str, text: &str| Message {
        role: role.to_owned(),
        content: vec![Part::from_text(text)],
        metadata: None,
    };
    vec![
        message("user", "Hi"),
        message("model", "Hello, how can I help?"),
    ]
}

/// `help_desk` loaded from the folder as `promptic` loads it, and rendered at run time.
fn desk_run_time(
    input: serde_json::Value,
    history: &[promptic::dotprompt::Message],
) -> promptic::dotprompt::RenderedPrompt {
    use promptic::dotprompt::DataArgument;
    use promptic::dotprompt::folder::Folder;
    use promptic::load::Root;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let folder = Folder::open(Root::new(&dir, "prompts")).unwrap();
    let loaded = folder.load("help_desk").unwrap();
    let data = DataArgument {
        input: serde_json::from_value(input).unwrap(),
        messages: history.to_vec(),
        ..DataArgument::default()
    };
    loaded.prompt.render(&data).unwrap()
}

#[test]
fn a_dotprompt_breakpoint_falls_in_the_same_place_compiled_and_at_run_time() {
    let history = desk_history();
    for vip in [None, Some(false), Some(true)] {
        let desk = HelpDesk {
            plan: "Pro",
            vip,
            question: "How do I reset it?",
        };
        let compiled = desk
            .__promptic_compiled(&history)
            .expect("the compiled render ran");
        assert_eq!(compiled, desk.render_with_history(&history).unwrap());
        let mut input = serde_json::json!({"plan": "Pro", "question": "How do I reset it?"});
        if let Some(vip) = vip {
            input["vip"] = vip.into();
        }
        let run_time = desk_run_time(input, &history);
        assert_eq!(run_time, compiled);
        let rules = if vip == Some(true) {
            format!("{DESK_RULES}{DESK_VIP}")
        } else {
            DESK_RULES.to_owned()
        };
        assert_eq!(
            compiled.breakpoints,
            [CacheBreakpoint {
                message: 0,
                offset: rules.len()
            }]
        );
        let chat = compiled.to_chat(HelpDesk::PATH).unwrap();
        assert_eq!(chat.breakpoints, compiled.breakpoints);
        // The system message, the two turns of history, the question.
        assert_eq!(chat.messages.len(), 4);
        let system = chat.messages[0].text();
        assert_eq!(&system[..rules.len()], rules);
        assert_eq!(&system[rules.len()..], "The customer is on the Pro plan.\n");
    }
}

#[test]
fn the_anthropic_body_of_a_dotprompt_prompt_marks_the_end_of_its_rules() {
    let chat = |plan: &'static str, question: &'static str| {
        let desk = HelpDesk {
            plan,
            vip: None,
            question,
        };
        desk.render_with_history(&desk_history())
            .unwrap()
            .to_chat(HelpDesk::PATH)
            .unwrap()
    };
    let pro = chat("Pro", "How do I reset it?");
    let body = serde_json::to_value(MessagesRequest::try_from(&pro).unwrap()).unwrap();
    assert_eq!(
        body["system"],
        serde_json::json!([
            {"type": "text", "text": DESK_RULES, "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "The customer is on the Pro plan.\n"}
        ])
    );
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert_eq!(body["max_tokens"], 800);
    assert_eq!(body["messages"].as_array().unwrap().len(), 3);
    assert!(!body["messages"].to_string().contains("cache_control"));
    // Another plan and question: the same cached prefix.
    let basic = chat("Basic", "Why is the light red?");
    assert_ne!(basic.messages, pro.messages);
    assert_eq!(
        basic.prefix_hash(basic.breakpoints[0]),
        pro.prefix_hash(pro.breakpoints[0])
    );
}
