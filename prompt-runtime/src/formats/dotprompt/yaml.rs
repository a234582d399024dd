//! A `.prompt` file's YAML frontmatter, read into a [`Value`] as dotprompt's JavaScript
//! reads it: the `yaml` package's `parse` with its defaults, then JavaScript's objects.
//!
//! - YAML 1.2 and its core schema: a plain scalar is `null` (`~`, `null`, `Null`, `NULL` or
//!   nothing), a boolean (`true`, `True`, `TRUE` and the same of `false`; not `yes` or
//!   `on`), an integer (decimal, `0o` octal, `0x` hexadecimal), a float (with a point or an
//!   exponent, `.inf`, `.nan`), or else a string. A quoted or block scalar is a string.
//! - An explicit core tag reads a scalar by that tag's rule (`!!int '12'` is 12), and a
//!   scalar that does not fit it, or has any other tag, is its string.
//! - Numbers are JavaScript's: floats, an integer beyond 2^53 the nearest one; infinities
//!   and NaN are `null`, as JSON holds them.
//! - Keys become strings as JavaScript makes them (`1` is `"1"`, `null` is `""`); keys that
//!   are array indices come first, in numeric order. A key written twice in one mapping is
//!   an error (JavaScript's "Map keys must be unique"), two keys that only give the same
//!   string (`1` and `'1'`) are one key holding the later value.
//! - `<<` is an ordinary key (merge keys are YAML 1.1's).
//! - An alias is the value of its anchor; the same count as JavaScript's bounds aliases
//!   (`maxAliasCount`, 100), so an alias bomb fails where it fails in JavaScript.
//! - More than one document is an error.
//!
//! Deliberately stricter, as JavaScript gives no useful value for these: a list or mapping
//! used as a key (JavaScript turns it into YAML text), an alias inside the node it names (a
//! circular object), a node tagged with a YAML 1.1 type (`!!binary`, `!!set`, `!!omap`,
//! `!!pairs`, `!!timestamp`, `!!merge`: a Node.js `Buffer`, a `Set`, ...), nesting deeper
//! than [`MAX_DEPTH`] and more than [`MAX_VALUES`] values.

use std::collections::{HashMap, HashSet};

use granit_parser::{Event, Parser, ScalarStyle, ScanError, Span, Tag};

use super::value::{Object, Value};
use crate::value::data::Rules;
use crate::value::js::{Js, number};

/// How deep collections may nest in frontmatter.
pub(crate) const MAX_DEPTH: usize = 64;
/// How many values a frontmatter may hold, aliases counted by what they repeat.
pub(crate) const MAX_VALUES: usize = 200_000;
/// The YAML 1.1 types JavaScript's `yaml` builds when a node is tagged with one.
const YAML_1_1: [&str; 6] = ["binary", "merge", "omap", "pairs", "set", "timestamp"];
/// JavaScript's `maxAliasCount`.
const MAX_ALIAS_COUNT: u64 = 100;

/// What went wrong, and where: a byte offset in the YAML text.
#[derive(Debug, PartialEq)]
pub(crate) struct YamlError {
    pub message: String,
    pub at: usize,
}

/// Reads the YAML `text` (`null` when it holds no document).
pub(crate) fn parse(text: &str) -> Result<Value, YamlError> {
    let mut reader = Reader {
        text,
        stack: Vec::new(),
        anchors: HashMap::new(),
        values: 0,
        documents: 0,
        result: None,
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(|e| scan_error(text, &e))?;
        if reader.event(event, span)? {
            break;
        }
    }
    Ok(reader.result.unwrap_or(Value::Null))
}

/// The leaves under a node, for JavaScript's alias count: whether a scalar is one, and
/// the anchors of the aliases that are.
#[derive(Default)]
struct Leaves {
    scalar: bool,
    aliases: Vec<usize>,
}

impl Leaves {
    fn add(&mut self, other: Leaves) {
        self.scalar |= other.scalar;
        self.aliases.extend(other.aliases);
    }
}

fn distinct(ids: &[usize]) -> Vec<usize> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// An anchored node, as aliases repeat it.
struct Anchored {
    value: Value,
    /// How many values it holds (itself included).
    size: usize,
    leaves: Leaves,
    /// JavaScript's `count` and `aliasCount` of the anchor.
    count: u64,
    alias_count: u64,
}

/// A key as JavaScript's unique-key test compares it: by its scalar value.
#[derive(PartialEq, Eq, Hash)]
enum KeyId {
    Null,
    Bool(bool),
    /// A number's bits, `-0` as `0`.
    Number(u64),
    String(String),
}

enum Open {
    Sequence(Vec<Value>),
    /// The object, its keys as written (for the unique-key test), and the key awaiting
    /// its value.
    Mapping(Object, HashSet<KeyId>, Option<String>),
}

struct Frame {
    open: Open,
    anchor: usize,
    leaves: Leaves,
    /// Values under it, itself included.
    size: usize,
}

struct Reader<'t> {
    text: &'t str,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchored>,
    values: usize,
    documents: usize,
    result: Option<Value>,
}

/// A finished node on its way into its parent.
struct Node {
    value: Value,
    size: usize,
    leaves: Leaves,
    /// The key identity, when the node is a scalar (JavaScript compares keys that are
    /// scalars by value; an alias or a collection is unique).
    key: Option<KeyId>,
}

impl Reader<'_> {
    /// Takes one event; `true` at the end of the stream.
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<bool, YamlError> {
        match event {
            Event::StreamEnd => return Ok(true),
            Event::DocumentStart(..) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(self.error(
                        "the frontmatter holds more than one YAML document".to_owned(),
                        &span,
                    ));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.known(tag.as_deref(), &span)?;
                let (value, key) = scalar(&text, style, tag.as_deref());
                self.count(1, &span)?;
                let leaves = Leaves {
                    scalar: true,
                    aliases: Vec::new(),
                };
                if anchor != 0 {
                    self.anchors.insert(
                        anchor,
                        Anchored {
                            value: value.clone(),
                            size: 1,
                            leaves: Leaves {
                                scalar: true,
                                aliases: Vec::new(),
                            },
                            count: 0,
                            alias_count: 0,
                        },
                    );
                }
                self.finish(
                    Node {
                        value,
                        size: 1,
                        leaves,
                        key: Some(key),
                    },
                    &span,
                )?;
            }
            Event::Alias(id) => {
                let node = self.alias(id, &span)?;
                self.finish(node, &span)?;
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.known(tag.as_deref(), &span)?;
                self.open(Open::Sequence(Vec::new()), anchor, &span)?;
            }
            Event::MappingStart(_, anchor, tag) => {
                self.known(tag.as_deref(), &span)?;
                self.open(
                    Open::Mapping(Object::new(), HashSet::new(), None),
                    anchor,
                    &span,
                )?;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(false);
                };
                let value = match frame.open {
                    Open::Sequence(items) => Value::Array(items),
                    Open::Mapping(object, _, _) => Value::Object(<Js as Rules>::finish(object)),
                };
                if frame.anchor != 0 {
                    self.anchors.insert(
                        frame.anchor,
                        Anchored {
                            value: value.clone(),
                            size: frame.size,
                            leaves: Leaves {
                                scalar: frame.leaves.scalar,
                                aliases: distinct(&frame.leaves.aliases),
                            },
                            count: 0,
                            alias_count: 0,
                        },
                    );
                }
                self.finish(
                    Node {
                        value,
                        size: frame.size,
                        leaves: frame.leaves,
                        key: None,
                    },
                    &span,
                )?;
            }
            _ => {}
        }
        Ok(false)
    }

    /// Refuses the YAML 1.1 types JavaScript's reader still builds when a node is tagged
    /// with one (`!!binary` becomes a Node.js `Buffer`, `!!set` a `Set`).
    fn known(&self, tag: Option<&Tag>, span: &Span) -> Result<(), YamlError> {
        let Some(name) = tag.and_then(|t| t.suffix_in_namespace("tag:yaml.org,2002:")) else {
            return Ok(());
        };
        if YAML_1_1.contains(&name.as_ref()) {
            // The node's span starts after its properties: point at the tag before it.
            let node = offset(self.text, span);
            let line = self.text[..node].rfind('\n').map_or(0, |i| i + 1);
            let at = self.text[line..node]
                .rfind('!')
                .map(|i| line + i)
                .map_or(node, |i| self.text[..i].trim_end_matches('!').len());
            return Err(YamlError {
                message: format!(
                    "`!!{name}` is a YAML 1.1 type, which dotprompt's JavaScript reads into an \
                     object of its own; promptic does not read it"
                ),
                at,
            });
        }
        Ok(())
    }

    fn open(&mut self, open: Open, anchor: usize, span: &Span) -> Result<(), YamlError> {
        if let Some(Frame {
            open: Open::Mapping(_, _, None),
            ..
        }) = self.stack.last()
        {
            return Err(self.error(
                "a list or mapping used as a key is not read (JavaScript would turn it into \
                 YAML text)"
                    .to_owned(),
                span,
            ));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error(
                format!("the frontmatter nests deeper than {MAX_DEPTH} levels"),
                span,
            ));
        }
        self.count(1, span)?;
        self.stack.push(Frame {
            open,
            anchor,
            leaves: Leaves::default(),
            size: 1,
        });
        Ok(())
    }

    /// The value of an alias, counted as JavaScript counts it.
    fn alias(&mut self, id: usize, span: &Span) -> Result<Node, YamlError> {
        let Some(anchored) = self.anchors.get(&id) else {
            return Err(self.error(
                "an alias inside the node its anchor names (a value that holds itself)".to_owned(),
                span,
            ));
        };
        let alias_count = if anchored.alias_count == 0 {
            let mut count = u64::from(anchored.leaves.scalar);
            for inner in &anchored.leaves.aliases {
                if let Some(a) = self.anchors.get(inner) {
                    count = count.max(a.count.saturating_mul(a.alias_count));
                }
            }
            count
        } else {
            anchored.alias_count
        };
        let Some(anchored) = self.anchors.get_mut(&id) else {
            return Err(self.error("an alias without its anchor".to_owned(), span));
        };
        anchored.count += 1;
        anchored.alias_count = alias_count;
        if anchored.count.saturating_mul(alias_count) > MAX_ALIAS_COUNT {
            return Err(self.error(
                format!(
                    "the aliases repeat their anchors more than dotprompt's YAML reader allows \
                     ({MAX_ALIAS_COUNT}, its guard against alias bombs)"
                ),
                span,
            ));
        }
        let (value, size) = (anchored.value.clone(), anchored.size);
        self.count(size, span)?;
        Ok(Node {
            value,
            size,
            leaves: Leaves {
                scalar: false,
                aliases: vec![id],
            },
            // An alias is no scalar to JavaScript's unique-key test: never a duplicate.
            key: None,
        })
    }

    /// Places a finished node in its parent, or makes it the result.
    fn finish(&mut self, node: Node, span: &Span) -> Result<(), YamlError> {
        let text = self.text;
        let error = |message: String| YamlError {
            message,
            at: offset(text, span),
        };
        let Some(parent) = self.stack.last_mut() else {
            self.result = Some(node.value);
            return Ok(());
        };
        parent.size += node.size;
        parent.leaves.add(node.leaves);
        match &mut parent.open {
            Open::Sequence(items) => items.push(node.value),
            Open::Mapping(object, seen, pending) => match pending.take() {
                Some(key) => object.insert(key, node.value),
                None => {
                    if matches!(
                        node.value,
                        Value::Array(_) | Value::Tuple(_) | Value::Object(_)
                    ) {
                        return Err(error(
                            "a list or mapping used as a key is not read (JavaScript would \
                             turn it into YAML text)"
                                .to_owned(),
                        ));
                    }
                    let key = node.value.to_js_string();
                    if let Some(id) = node.key
                        && !seen.insert(id)
                    {
                        return Err(error(format!(
                            "`{key}` is a key twice in one mapping (map keys must be unique)"
                        )));
                    }
                    *pending = Some(key);
                }
            },
        }
        Ok(())
    }

    /// Counts `n` more values against [`MAX_VALUES`].
    fn count(&mut self, n: usize, span: &Span) -> Result<(), YamlError> {
        self.values = self.values.saturating_add(n);
        if self.values > MAX_VALUES {
            return Err(self.error(
                format!("the frontmatter holds more than {MAX_VALUES} values"),
                span,
            ));
        }
        Ok(())
    }

    fn error(&self, message: String, span: &Span) -> YamlError {
        YamlError {
            message,
            at: offset(self.text, span),
        }
    }
}

/// The byte offset where `span` starts.
fn offset(text: &str, span: &Span) -> usize {
    marker_offset(text, span.start.byte_offset(), span.start.index())
}

fn marker_offset(text: &str, bytes: Option<usize>, chars: usize) -> usize {
    bytes
        .unwrap_or_else(|| {
            text.char_indices()
                .nth(chars)
                .map_or(text.len(), |(i, _)| i)
        })
        .min(text.len())
}

fn scan_error(text: &str, error: &ScanError) -> YamlError {
    let marker = error.marker();
    let info = error.info();
    YamlError {
        message: if info.is_empty() {
            "invalid YAML".to_owned()
        } else {
            info
        },
        at: marker_offset(text, marker.byte_offset(), marker.index()),
    }
}

/// A scalar's value and its identity as a key.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> (Value, KeyId) {
    let value = match tag {
        Some(tag) => match tag.core_suffix() {
            Some("null") => null(text).unwrap_or_else(|| string(text)),
            Some("bool") => boolean(text).unwrap_or_else(|| string(text)),
            Some("int") => integer(text).unwrap_or_else(|| string(text)),
            Some("float") => float(text).unwrap_or_else(|| string(text)),
            // `!!str`, a collection's tag on a scalar, a tag of no schema, `!`: the text.
            _ => string(text),
        },
        None if style == ScalarStyle::Plain => null(text)
            .or_else(|| boolean(text))
            .or_else(|| integer(text))
            .or_else(|| float(text))
            .unwrap_or_else(|| string(text)),
        None => string(text),
    };
    let key = match &value {
        Value::Null => KeyId::Null,
        Value::Bool(b) => KeyId::Bool(*b),
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(0.0);
            KeyId::Number(if f == 0.0 { 0 } else { f.to_bits() })
        }
        _ => KeyId::String(text.to_owned()),
    };
    (value, key)
}

fn string(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn null(text: &str) -> Option<Value> {
    matches!(text, "" | "~" | "null" | "Null" | "NULL").then_some(Value::Null)
}

fn boolean(text: &str) -> Option<Value> {
    match text {
        "true" | "True" | "TRUE" => Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// `0o17`, `0x1F`, or `[-+]?[0-9]+`, as JavaScript's `parseInt` reads it: a float.
fn integer(text: &str) -> Option<Value> {
    let radix_digits = |prefix: &str, radix: u32| {
        let digits = text.strip_prefix(prefix)?;
        (!digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))).then(|| {
            digits.chars().fold(0.0f64, |n, c| {
                n * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
            })
        })
    };
    if let Some(n) = radix_digits("0o", 8).or_else(|| radix_digits("0x", 16)) {
        return Some(number(n));
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: f64 = digits.parse().ok()?;
    Some(number(if text.starts_with('-') { -n } else { n }))
}

/// `.inf`, `.nan` (JSON's `null`), or a decimal with a point or an exponent.
fn float(text: &str) -> Option<Value> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Value::Null);
    }
    // [0-9]* (. [0-9]*)? ([eE] [-+]? [0-9]+)?, with a digit before or after the point, and
    // a point or an exponent.
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(e) => (&unsigned[..e], Some(&unsigned[e + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = digits(whole)
        && fraction.is_none_or(digits)
        && match fraction {
            Some(fraction) => !whole.is_empty() || !fraction.is_empty(),
            None => !whole.is_empty(),
        };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    // A decimal with neither a point nor an exponent is an integer, read above.
    if !mantissa_ok || !exponent_ok || (fraction.is_none() && exponent.is_none()) {
        return None;
    }
    let n: f64 = text.parse().ok()?;
    Some(number(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> String {
        serde_json::to_string(&parse(yaml).unwrap()).unwrap()
    }

    fn refused(yaml: &str) -> (String, usize) {
        let error = parse(yaml).unwrap_err();
        (error.message, error.at)
    }

    #[test]
    fn scalars_follow_the_core_schema_and_javascript_numbers() {
        assert_eq!(
            read("a: 0x1F\nb: 0o17\nc: 012\nd: 1_000\ne: .5\nf: yes\ng: True\nh: ~\ni: '1'"),
            r#"{"a":31,"b":15,"c":12,"d":"1_000","e":0.5,"f":"yes","g":true,"h":null,"i":"1"}"#
        );
        assert_eq!(
            read("a: !!int '12'\nb: !!float 3\nc: !!str true\nd: .inf\ne: 9007199254740993"),
            r#"{"a":12,"b":"3","c":"true","d":null,"e":9007199254740992}"#
        );
        assert_eq!(read("~: a\n1.5: b\n2: c"), r#"{"2":"c","":"a","1.5":"b"}"#);
        assert_eq!(read("# nothing"), "null");
    }

    #[test]
    fn what_javascript_cannot_give_a_value_for_is_refused_where_it_is_written() {
        let cases = [
            (
                "a: 1\nb: [x]\n? [a]\n: c\n",
                "a list or mapping used as a key",
                14,
            ),
            (
                "a: &x [1, *x]\n",
                "an alias inside the node its anchor names",
                10,
            ),
            (
                "a: 1\nb: !!binary aGk=\n",
                "`!!binary` is a YAML 1.1 type",
                8,
            ),
            ("a: !!set {x: null}\n", "`!!set` is a YAML 1.1 type", 3),
            ("a: 1\na: 2\n", "`a` is a key twice", 5),
            ("a: 1\n...\nb: 2\n", "more than one YAML document", 9),
            ("a: [1, 2\n", "unclosed bracket", 3),
        ];
        for (yaml, says, at) in cases {
            let (message, offset) = refused(yaml);
            assert!(message.contains(says), "{yaml:?}: {message}");
            assert_eq!(offset, at, "{yaml:?}: {message}");
        }
    }

    #[test]
    fn hostile_frontmatter_stops_at_a_bound() {
        // The top mapping and 63 lists in it: 64 levels.
        let deep = "a: ".to_owned() + &"[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(refused(&deep).0.contains("deeper than 64 levels"));
        let nested = "a: ".to_owned() + &"[".repeat(MAX_DEPTH - 1) + &"]".repeat(MAX_DEPTH - 1);
        assert!(parse(&nested).is_ok());
        // Aliases within JavaScript's count, each repeating a long list: stopped by the
        // number of values, not by memory.
        let long = vec!["1"; 5_000].join(", ");
        let mut many = format!("a: &a [{long}]\nb: [");
        many.push_str(&vec!["*a"; 90].join(", "));
        many.push_str("]\n");
        assert!(refused(&many).0.contains("more than 200000 values"));
        // A mapping of many keys is read in linear time (the unique-key test hashes).
        let mut wide = String::new();
        for i in 0..90_000 {
            wide.push_str(&format!("k{i}: {i}\n"));
        }
        let started = std::time::Instant::now();
        assert!(parse(&wide).is_ok());
        eprintln!("90,000 keys: {:?}", started.elapsed());
        // The alias bomb JavaScript refuses, refused at the same alias.
        let bomb = "a: &a [1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\n\
                    c: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c]\n";
        let (message, at) = refused(bomb);
        assert!(
            message.contains("more than dotprompt's YAML reader allows"),
            "{message}"
        );
        assert_eq!(&bomb[at..at + 2], "*c");
        assert_eq!(bomb[..at].matches("*c").count(), 1);
    }
}
