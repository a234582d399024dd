//! A didactyl template's messages. The template itself is read with the language core
//! ([`ChatTemplate::parse`]); here its sections become a chat.

use super::Message;
use crate::parse::didactyl::{ChatTemplate, Piece};

impl ChatTemplate {
    /// The messages: the personality (stripped) as the system message `system_prompt`,
    /// then each section in order — an `expand` section inserts `history`, the last
    /// `limit` of it when `limit` > 0; any other section is one message whose `{{name}}`s
    /// are what `resolve` gives, empty text when it gives nothing (didactyl's rule). Every
    /// message carries its section's name.
    ///
    /// ```
    /// use promptic::chat::{ChatTemplate, Message, Role};
    ///
    /// let t = ChatTemplate::parse(
    ///     "You help.\n---template---\n- section: turns\n  role: expand\n  limit: 1\n- section: q\n  role: user\n  content: |\n    Q: {{ q }}\n    {{missing}}!\n",
    /// )
    /// .unwrap()
    /// .unwrap();
    /// let history = [Message::user("hi"), Message::assistant("hello")];
    /// let messages = t.messages(|name| (name == "q").then(|| "why?".to_owned()), &history);
    /// let shown: Vec<(Role, &str, &str)> =
    ///     messages.iter().map(|m| (m.role, &*m.section, m.content.as_text().unwrap_or_default())).collect();
    /// assert_eq!(shown, [
    ///     (Role::System, "system_prompt", "You help."),
    ///     (Role::Assistant, "turns", "hello"),
    ///     (Role::User, "q", "Q: why?\n!"),
    /// ]);
    /// ```
    pub fn messages(
        &self,
        mut resolve: impl FnMut(&str) -> Option<String>,
        history: &[Message],
    ) -> Vec<Message> {
        let text = self.source.text();
        let mut messages = vec![Message::system(self.personality()).in_section("system_prompt")];
        for section in &self.sections {
            let Some(role) = section.role else {
                let keep = match section.limit {
                    0 => history.len(),
                    n => usize::try_from(n).unwrap_or(usize::MAX),
                };
                for m in &history[history.len().saturating_sub(keep)..] {
                    messages.push(
                        Message::new(m.role, m.content.clone()).in_section(section.name.clone()),
                    );
                }
                continue;
            };
            let mut content = String::new();
            for piece in &section.content {
                match piece {
                    Piece::Text(range) => content.push_str(&text[range.clone()]),
                    Piece::Var { name, .. } => {
                        if let Some(value) = resolve(name) {
                            content.push_str(&value);
                        }
                    }
                }
            }
            messages.push(Message::new(role, content).in_section(section.name.clone()));
        }
        messages
    }
}
