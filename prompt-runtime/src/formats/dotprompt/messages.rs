//! Cuts rendered output into messages and parts, as dotprompt does.
//!
//! A role marker starts a new message unless the current one has nothing but white
//! space yet (then it only changes its role); `{{history}}` inserts the conversation, each
//! message marked `purpose: history`, and continues with a `model` message. Text that is
//! only white space between markers is dropped. When the template does not place the
//! history, it goes before the last message if that is the user's, else at the end. A
//! cache breakpoint is found again as the message it falls in and the bytes of that
//! message's text before it.

use super::render::Piece;
use super::value::{Object, Value};
use super::{Message, Part};
use crate::chat::CacheBreakpoint;

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
            Piece::Breakpoint => false,
            _ => true,
        })
    }
}

pub(crate) fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || c == '\u{feff}')
}

/// The messages of a render, and where its cache breakpoints fall in them (see
/// [`CacheBreakpoint`]: one at the start of a message, or in one that has no message,
/// ends the message before it; one with no message before it is left out).
pub(crate) fn to_messages(
    pieces: Vec<Piece>,
    history: &[Message],
) -> (Vec<Message>, Vec<CacheBreakpoint>) {
    let mut sources = vec![Source::new("user")];
    // Content between role and history markers, gathered before it is kept or dropped.
    let mut chunk: Vec<Piece> = Vec::new();
    let flush = |chunk: &mut Vec<Piece>, sources: &mut Vec<Source>| {
        let blank = chunk.iter().all(|p| match p {
            Piece::Text(t) => is_blank(t),
            Piece::Breakpoint => true,
            _ => false,
        });
        // Breakpoints write nothing: the piece that starts the chunk is the first other.
        let first = chunk
            .iter()
            .position(|p| *p != Piece::Breakpoint)
            .unwrap_or(chunk.len());
        if let Some(Piece::BadRole(name)) = chunk.get(first) {
            // dotprompt splits at well-formed markers, then takes any piece that starts
            // with the role prefix for a role: the rest of the piece, `>>>` and all.
            let mut role = format!("{name}>>>");
            for piece in &chunk[first + 1..] {
                role.push_str(&marker_text(piece));
            }
            // The breakpoints before it end what comes before the role.
            if let Some(current) = sources.last_mut() {
                current.pieces.extend(chunk.drain(..first));
            }
            set_role(sources, role);
        } else if let Some(current) = sources.last_mut() {
            if blank {
                // Blank text is dropped; the breakpoints in it stay where it was.
                current
                    .pieces
                    .extend(chunk.drain(..).filter(|p| *p == Piece::Breakpoint));
            } else {
                current.pieces.append(chunk);
            }
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
    let mut messages: Vec<Message> = Vec::with_capacity(sources.len());
    // Each breakpoint: the message it is in (or, past the last, before), and the bytes of
    // that message's text before it.
    let mut marks: Vec<(usize, usize)> = Vec::new();
    for source in sources {
        if let Some(message) = source.content {
            messages.push(message);
            continue;
        }
        if source.pieces.iter().all(|p| *p == Piece::Breakpoint) {
            // No message: its breakpoints fall before the next one.
            marks.extend(source.pieces.iter().map(|_| (messages.len(), 0)));
            continue;
        }
        let (content, offsets) = parts(source.pieces);
        marks.extend(offsets.into_iter().map(|offset| (messages.len(), offset)));
        messages.push(Message {
            role: source.role,
            content,
            metadata: None,
        });
    }
    let mut breakpoints: Vec<CacheBreakpoint> = Vec::with_capacity(marks.len());
    for (message, offset) in marks {
        let at = if offset == 0 {
            message
                .checked_sub(1)
                .and_then(|i| messages.get(i).map(|m| (i, text_len(m))))
        } else {
            Some((message, offset))
        };
        if let Some((message, offset)) = at
            && breakpoints.last() != Some(&CacheBreakpoint { message, offset })
        {
            breakpoints.push(CacheBreakpoint { message, offset });
        }
    }
    let messages = insert_history(messages, history, &mut breakpoints);
    (messages, breakpoints)
}

/// The bytes of a message's text parts.
fn text_len(message: &Message) -> usize {
    message
        .content
        .iter()
        .filter_map(Part::text)
        .map(str::len)
        .sum()
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
        Piece::Breakpoint => String::new(),
    }
}

/// A message's parts, and the offset of each breakpoint among its pieces in the bytes of
/// its text parts.
fn parts(pieces: Vec<Piece>) -> (Vec<Part>, Vec<usize>) {
    // Inside a message a malformed role marker is only text, joined with its neighbours.
    let mut merged: Vec<Piece> = Vec::with_capacity(pieces.len());
    // Each breakpoint: the merged piece it is in (or before), and its byte in that text.
    let mut marks: Vec<(usize, usize)> = Vec::new();
    for piece in pieces {
        let piece = match piece {
            Piece::BadRole(_) => Piece::Text(marker_text(&piece)),
            Piece::Breakpoint => {
                marks.push(match merged.last() {
                    Some(Piece::Text(last)) => (merged.len() - 1, last.len()),
                    _ => (merged.len(), 0),
                });
                continue;
            }
            other => other,
        };
        match (merged.last_mut(), piece) {
            (Some(Piece::Text(last)), Piece::Text(more)) => last.push_str(&more),
            (_, piece) => merged.push(piece),
        }
    }
    let mut out = Vec::new();
    let mut offsets = Vec::with_capacity(marks.len());
    let mut marks = marks.into_iter().peekable();
    // The bytes of the text parts kept so far.
    let mut text = 0;
    for (i, piece) in merged.into_iter().enumerate() {
        let kept = matches!(&piece, Piece::Text(t) if !is_blank(t));
        while let Some((_, byte)) = marks.next_if(|(at, _)| *at == i) {
            offsets.push(text + if kept { byte } else { 0 });
        }
        match piece {
            Piece::Text(text) if is_blank(&text) => {}
            Piece::Text(more) => {
                text += more.len();
                out.push(Part::from_text(more));
            }
            Piece::Media { url, content_type } => out.push(Part::media(url, content_type)),
            Piece::Section(purpose) => {
                let mut metadata = Object::new();
                metadata.insert("purpose", Value::from(purpose));
                metadata.insert("pending", Value::Bool(true));
                let mut object = Object::new();
                object.insert("metadata", Value::Object(metadata));
                out.push(Part(object));
            }
            Piece::Role(_) | Piece::BadRole(_) | Piece::History | Piece::Breakpoint => {}
        }
    }
    offsets.extend(marks.map(|_| text));
    (out, offsets)
}

/// The history where dotprompt puts it when the template does not place it: before the
/// last message when that is the user's, else at the end. The breakpoints in that last
/// message move with it.
pub(crate) fn insert_history(
    mut messages: Vec<Message>,
    history: &[Message],
    breakpoints: &mut [CacheBreakpoint],
) -> Vec<Message> {
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
        let moved = messages.len() - 1;
        for breakpoint in breakpoints.iter_mut().filter(|b| b.message >= moved) {
            breakpoint.message += history.len();
        }
        let last = messages.pop();
        messages.extend(history.iter().cloned());
        messages.extend(last);
        return messages;
    }
    messages.extend(history.iter().cloned());
    messages
}
