//! Every derived prompt has one shape, whatever its file's format: `Render`'s name, path,
//! format and `output`, the common output of the same render as the format's own method.

use promptic::chat::Message;
use promptic::{Guidance, Identity, Output, Prompt, Render};

#[derive(Prompt)]
#[prompt("reply")]
struct Reply<'a> {
    topic: &'a str,
    #[prompt(one_of("short", "long"))]
    length: &'a str,
}

#[derive(Prompt)]
#[prompt("support_agent")]
struct SupportAgent<'a> {
    guidance: Guidance,
    plan: &'a str,
    turns: Vec<Message>,
    question: &'a str,
}

#[derive(Prompt)]
#[prompt("code_review")]
struct CodeReview<'a> {
    repository: &'a str,
    diff: &'a str,
}

#[derive(Prompt)]
#[prompt("help_desk")]
struct HelpDesk<'a> {
    plan: &'a str,
    vip: Option<bool>,
    question: &'a str,
}

/// What a generic caller knows of a prompt: its constants and its output.
fn describe<P: Render>(prompt: &P, identity: &Identity) -> (String, Output) {
    let output = prompt.output(identity).expect("renders");
    assert_eq!(output.path(), P::PATH, "{}", P::NAME);
    (format!("{} {} {}", P::FORMAT, P::NAME, P::PATH), output)
}

#[test]
fn every_format_gives_the_common_output_through_one_trait() {
    let identity = Identity::from_json(r#"{"preferred": "Sam"}"#).unwrap();

    let reply = Reply {
        topic: "tides",
        length: "short",
    };
    let (about, output) = describe(&reply, &identity);
    assert_eq!(about, "markdown reply prompts/reply.md");
    assert_eq!(output, Output::Text(reply.render(&identity)));

    let agent = SupportAgent {
        guidance: Guidance::Lean,
        plan: "Pro",
        turns: vec![Message::user("Hi")],
        question: "How do I reset it?",
    };
    let (about, output) = describe(&agent, &identity);
    assert_eq!(about, "chat support_agent prompts/support_agent.md");
    assert_eq!(output, Output::Chat(agent.messages(&identity)));

    let review = CodeReview {
        repository: "acme/r7",
        diff: "+ fix",
    };
    let (about, output) = describe(&review, &identity);
    assert_eq!(about, "jinja code_review prompts/code_review.md.j2");
    assert_eq!(output, Output::Text(review.render().unwrap()));

    let desk = HelpDesk {
        plan: "Pro",
        vip: Some(true),
        question: "Why is the light red?",
    };
    let (about, output) = describe(&desk, &identity);
    assert_eq!(about, "dotprompt help_desk prompts/help_desk.prompt");
    let chat = desk.render().unwrap().to_chat(HelpDesk::PATH).unwrap();
    assert_eq!(output, Output::Chat(chat));
    // The dotprompt file's model and config reach the common metadata.
    assert_eq!(
        output.meta().model.as_deref(),
        Some("anthropic/claude-sonnet-4-5")
    );
}

/// A prompt written by its file's name is the same prompt, in the derive and in
/// `prompt!`, as the `promptic` command reads names.
#[derive(Prompt)]
#[prompt("code_review.md.j2")]
struct CodeReviewByFile<'a> {
    repository: &'a str,
    diff: &'a str,
}

#[derive(Prompt)]
#[prompt("help_desk.prompt")]
struct HelpDeskByFile<'a> {
    plan: &'a str,
    vip: Option<bool>,
    question: &'a str,
}

#[derive(Prompt)]
#[prompt("reply.md")]
struct ReplyByFile<'a> {
    topic: &'a str,
    #[prompt(one_of("short", "long"))]
    length: &'a str,
}

#[test]
fn a_prompt_named_by_its_file_is_the_same_prompt() {
    let identity = Identity::from_json(r#"{"preferred": "Sam"}"#).unwrap();
    let (repository, diff) = ("acme/r7", "+ fix");
    assert_eq!(<CodeReviewByFile as Render>::NAME, "code_review");
    assert_eq!(
        CodeReviewByFile { repository, diff }.render().unwrap(),
        CodeReview { repository, diff }.render().unwrap()
    );
    let (plan, vip, question) = ("Pro", None, "Why?");
    assert_eq!(<HelpDeskByFile as Render>::NAME, "help_desk");
    assert_eq!(
        HelpDeskByFile {
            plan,
            vip,
            question
        }
        .render()
        .unwrap(),
        HelpDesk {
            plan,
            vip,
            question
        }
        .render()
        .unwrap()
    );
    let (topic, length) = ("tides", "long");
    assert_eq!(<ReplyByFile as Render>::NAME, "reply");
    assert_eq!(
        ReplyByFile { topic, length }.render(&identity),
        Reply { topic, length }.render(&identity)
    );
    let by_file = promptic::prompt!("reply.md", topic = "tides", length = "long");
    assert_eq!(
        by_file.render(&identity).text,
        Reply { topic, length }.render(&identity).text
    );
}

/// `prompt!` gives a value with the same `output(&identity)` whatever the file's format:
/// the common output of the derived struct's render.
#[test]
fn prompt_values_give_the_common_output_too() {
    let identity = Identity::from_json(r#"{"preferred": "Sam"}"#).unwrap();
    let reply = Reply {
        topic: "tides",
        length: "short",
    };
    let call = promptic::prompt!("reply", topic = "tides", length = "short");
    assert_eq!(
        call.output(&identity).unwrap(),
        reply.output(&identity).unwrap()
    );

    let review = CodeReview {
        repository: "acme/r7",
        diff: "+ fix",
    };
    let call = promptic::prompt!("code_review", repository = "acme/r7", diff = "+ fix");
    assert_eq!(
        call.output(&identity).unwrap(),
        review.output(&identity).unwrap()
    );

    let desk = HelpDesk {
        plan: "Pro",
        vip: Some(true),
        question: "Why is the light red?",
    };
    let call = promptic::prompt!(
        "help_desk",
        plan = "Pro",
        vip = Some(true),
        question = "Why is the light red?"
    );
    let output = call.output(&identity).unwrap();
    assert!(matches!(output, Output::Chat(_)));
    assert_eq!(output, desk.output(&identity).unwrap());
}

/// `Render::VERSION` is the digest of what the derive compiled, the same for every format
/// as the folder's reader gives it (`promptic list --json`'s `version`), and a Markdown
/// prompt's is `Prompt::VERSION`.
#[test]
fn every_format_has_the_version_the_folder_reader_gives() {
    let project = promptic::load::Project::open(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts"),
        "prompts",
    )
    .unwrap();
    let version = |name: &str| project.load(name).unwrap().version();
    for (name, derived) in [
        ("reply", <Reply as Render>::VERSION),
        ("support_agent", <SupportAgent as Render>::VERSION),
        ("code_review", <CodeReview as Render>::VERSION),
        ("help_desk", <HelpDesk as Render>::VERSION),
    ] {
        assert_eq!(derived.len(), 16, "{name}");
        assert_eq!(derived, version(name), "{name}");
    }
    assert_eq!(<Reply as Render>::VERSION, <Reply as Prompt>::VERSION);
    // Two prompts, two versions.
    assert_ne!(
        <CodeReview as Render>::VERSION,
        <HelpDesk as Render>::VERSION
    );
}
