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
