//! `ChatTemplate::parse` (didactyl's `---template---` format, loaded at run time), then
//! `names`, `check` and `messages` on what it reads.
//!
//! Input: the template's text (bytes that are not UTF-8 are read lossily).

use prompt_runtime::chat::{ChatTemplate, Message, Role};

/// One input: parsing either reads a template, finds no marker, or reports diagnostics
/// that render; a template read is checked against its own names (which must pass) and
/// turned into messages, whose number follows from its sections.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let template = match ChatTemplate::parse_file("prompts/chat.md", &text) {
        Ok(Some(template)) => template,
        Ok(None) => return,
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
            return;
        }
    };
    let names = template.names();
    if let Err(diagnostics) = template.check(&names) {
        panic!("a template fails the check against its own names: {diagnostics}");
    }
    match template.check(&[]) {
        Ok(()) => assert!(
            names.is_empty(),
            "names {names:?} pass a check that knows none"
        ),
        Err(diagnostics) => {
            let _ = diagnostics.to_string();
        }
    }

    let history = [
        Message::user("<earlier {{x}} $x>"),
        Message::assistant("<reply>"),
        Message::user(""),
    ];
    for history in [&history[..], &[]] {
        let messages = template.messages(
            |name| (name.len() % 2 == 0).then(|| format!("<{name}>")),
            history,
        );
        let expected = 1 + template
            .sections()
            .iter()
            .map(|section| match (section.role, section.limit) {
                (Some(_), _) => 1,
                (None, 0) => history.len(),
                (None, limit) => history
                    .len()
                    .min(usize::try_from(limit).unwrap_or(usize::MAX)),
            })
            .sum::<usize>();
        assert_eq!(
            messages.len(),
            expected,
            "one message per section, and the history"
        );
        assert_eq!(
            messages[0].role,
            Role::System,
            "the personality comes first"
        );
    }
}
