// A prompt that extends a layout and defines a macro: its blocks take the layout's
// places, `super()` writes the layout's block, and the macro's body renders at each call,
// byte for byte as Jinja2 renders the files.
use promptic::PromptValue;

#[derive(PromptValue)]
struct Ticket<'a> {
    subject: &'a str,
    minutes: u32,
}

#[derive(promptic::Prompt)]
#[prompt("report")]
struct Report<'a> {
    title: &'a str,
    agent: &'a str,
    tickets: Vec<Ticket<'a>>,
}

fn main() {
    let report = Report {
        title: "Ticket report",
        agent: "Ada",
        tickets: vec![
            Ticket { subject: "login fails", minutes: 30 },
            Ticket { subject: "refund", minutes: 15 },
        ],
    };
    // What Jinja2 3.1 renders for the same files, options and values.
    let text = report.render().unwrap().text;
    assert_eq!(
        text,
        "# Ticket report\nYou answer support tickets.\nBe brief.\n- login fails: 30 min\n- refund: 15 min\n- total: 45 minutes\nSign as Ada.\n"
    );
    assert_eq!(report.__promptic_compiled().as_deref(), Some(text.as_str()), "compiled");
}
