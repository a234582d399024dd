// Methods, slices, a dict literal, `namespace()` with its attributes set in a loop,
// arithmetic, `{% filter %}` and the filters past the first ones are checked like the
// rest and compiled, byte for byte as Jinja2 renders the file.
use promptic::PromptValue;

#[derive(PromptValue)]
struct Owner {
    name: String,
}

#[derive(PromptValue)]
struct Item<'a> {
    title: &'a str,
    urgency: &'a str,
    minutes: u32,
    priority: u32,
}

#[derive(promptic::Prompt)]
#[prompt("digest")]
struct Digest<'a> {
    owner: Owner,
    items: Vec<Item<'a>>,
    tags: Vec<&'a str>,
}

fn main() {
    let digest = Digest {
        owner: Owner { name: "ada lovelace".into() },
        items: vec![
            Item { title: "plan the offsite", urgency: "low", minutes: 45, priority: 2 },
            Item { title: "review the budget", urgency: "high", minutes: 90, priority: 1 },
        ],
        tags: vec!["ops", "finance", "ops"],
    };
    // What Jinja2 3.1 renders for the same file, options and values.
    let text = digest.render().unwrap().text;
    assert_eq!(
        text,
        "Digest for Ada Lovelace (ADA):\n- Review The Budget: today, 1h30m\n- Plan The Offsite: can wait, 0h45m\n  Total: 135 minutes over 2 items.\n  Tags: finance, ops"
    );
    assert_eq!(digest.__promptic_compiled().as_deref(), Some(text.as_str()), "compiled");
}
