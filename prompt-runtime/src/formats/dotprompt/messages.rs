//! Cuts rendered output into messages and parts, as dotprompt does.
//!
//! A role marker starts a new message unless the current one has nothing but white
//! space yet (then it only changes its role); `{{history}}` inserts the conversation, each
//! message marked `purpose: history`, and continues with a `model` message. Text that is
//! only white space between markers is dropped. When the template does not place the
//! history, it goes before the last message if that is the user's, else at the end.

use super::render::Piece;
use super::value::{Object, Value};
use super::{Message, Part};

struct Source {
    role: String,
    pieces: Vec<Piece>,
    /// A history message, passed through.
    content: Option<Message>,
}

impl Source {
    fn new(role: &str) -> Self {
        Source {
            role: role.to_owned(),
            pieces: Vec::new(),
            content: None,
        }
    }

    fn has_content(&self) -> bool {
        self.pieces.iter().any(|p| match p {
            Piece::Text(t) => !is_blank(t),
            _ => true,
        })
    }
}

pub(crate) fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || c == '\u{feff}')
}

pub(crate) fn to_messages(pieces: Vec<Piece>, history: &[Message]) -> Vec<Message> {
    let mut sources = vec![Source::new("user")];
    // Content between role and history markers, gathered before it is kept or dropped.
    let mut chunk: Vec<Piece> = Vec::new();
    let flush = |chunk: &mut Vec<Piece>, sources: &mut Vec<Source>| {
        let blank = chunk
            .iter()
            .all(|p| matches!(p, Piece::Text(t) if is_blank(t)));
        if let Some(Piece::BadRole(name)) = chunk.first() {
            // dotprompt splits at well-formed markers, then takes any piece that starts
            // with the role prefix for a role: the rest of the piece, `>>>` and all.
            let mut role = format!("{name}>>>");
            for piece in &chunk[1..] {
                role.push_str(&marker_text(piece));
            }
            set_role(sources, role);
        } else if !blank && let Some(current) = sources.last_mut() {
            current.pieces.append(chunk);
        }
        chunk.clear();
    };
    for piece in pieces {
        match piece {
            Piece::Role(role) => {
                flush(&mut chunk, &mut sources);
                set_role(&mut sources, role);
            }
            Piece::History => {
                flush(&mut chunk, &mut sources);
                for message in history {
                    let message = marked_history(message);
                    let mut source = Source::new(&message.role);
                    source.content = Some(message);
                    sources.push(source);
                }
                sources.push(Source::new("model"));
            }
            other => chunk.push(other),
        }
    }
    flush(&mut chunk, &mut sources);
    let messages: Vec<Message> = sources
        .into_iter()
        .filter_map(|source| match source.content {
            Some(message) => Some(message),
            None if source.pieces.is_empty() => None,
            None => Some(Message {
                role: source.role,
                content: parts(source.pieces),
                metadata: None,
            }),
        })
        .collect();
    insert_history(messages, history)
}

/// A history message as `{{history}}` inserts it: marked `purpose: history`.
pub(crate) fn marked_history(message: &Message) -> Message {
    let mut message = message.clone();
    let mut metadata = message.metadata.take().unwrap_or_default();
    metadata.insert("purpose", Value::from("history"));
    message.metadata = Some(metadata);
    message
}

/// A role marker: a new message, unless the current one is still blank.
fn set_role(sources: &mut Vec<Source>, role: String) {
    match sources.last_mut().filter(|s| s.content.is_none()) {
        Some(current) if !current.has_content() => current.role = role,
        _ => sources.push(Source::new(&role)),
    }
}

/// A piece as dotprompt's rendered string holds it.
fn marker_text(piece: &Piece) -> String {
    match piece {
        Piece::Text(text) => text.clone(),
        Piece::Role(role) | Piece::BadRole(role) => format!("<<<dotprompt:role:{role}>>>"),
        Piece::History => "<<<dotprompt:history>>>".to_owned(),
        Piece::Media { url, content_type } => match content_type {
            Some(ct) => format!("<<<dotprompt:media:url {url} {ct}>>>"),
            None => format!("<<<dotprompt:media:url {url}>>>"),
        },
        Piece::Section(name) => format!("<<<dotprompt:section {name}>>>"),
    }
}

fn parts(pieces: Vec<Piece>) -> Vec<Part> {
    // Inside a message a malformed role marker is only text, joined with its neighbours.
    let mut merged: Vec<Piece> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let piece = match piece {
            Piece::BadRole(_) => Piece::Text(marker_text(&piece)),
            other => other,
        };
        match (merged.last_mut(), piece) {
            (Some(Piece::Text(last)), Piece::Text(more)) => last.push_str(&more),
            (_, piece) => merged.push(piece),
        }
    }
    let mut out = Vec::new();
    for piece in merged {
        match piece {
            Piece::Text(text) if is_blank(&text) => {}
            Piece::Text(text) => out.push(Part::from_text(text)),
            Piece::Media { url, content_type } => out.push(Part::media(url, content_type)),
            Piece::Section(purpose) => {
                let mut metadata = Object::new();
                metadata.insert("purpose", Value::from(purpose));
                metadata.insert("pending", Value::Bool(true));
                let mut object = Object::new();
                object.insert("metadata", Value::Object(metadata));
                out.push(Part(object));
            }
            Piece::Role(_) | Piece::BadRole(_) | Piece::History => {}
        }
    }
    out
}

pub(crate) fn insert_history(mut messages: Vec<Message>, history: &[Message]) -> Vec<Message> {
    let placed = messages.iter().any(|m| {
        m.metadata
            .as_ref()
            .and_then(|md| md.get("purpose"))
            .and_then(Value::as_str)
            == Some("history")
    });
    if placed {
        return messages;
    }
    if messages.is_empty() {
        return history.to_vec();
    }
    if messages.last().is_some_and(|m| m.role == "user") {
        let last = messages.pop();
        messages.extend(history.iter().cloned());
        messages.extend(last);
        return messages;
    }
    messages.extend(history.iter().cloned());
    messages
}
