//! Builds the tree of a Handlebars body and applies its whitespace control.
//!
//! Stage order, as in Handlebars: tags and text → a tree of statements (blocks hold their
//! body and `{{else}}` branch) → whitespace control (`~`, then the standalone-line rule
//! for block tags, `{{else}}`, comments and partials) → the [`Node`] tree.

use super::MAX_DEPTH;
use super::ast::{Block, BlockKind, Expr, HelperCall, HelperName, Node, PartialCall, Path, Span};
use super::lexer::{self, Item, LexError, Tag, TagKind, Token};

/// `key=value` arguments in order.
type Hash = Vec<(String, Expr)>;

/// `~` flags of a tag: strip before it (`open`) or after it (`close`).
#[derive(Clone, Copy, Debug, Default)]
struct Strip {
    open: bool,
    close: bool,
}

#[derive(Debug)]
struct Content {
    /// The text as written: the standalone tests read it.
    original: String,
    /// The text after stripping.
    value: String,
    left_stripped: bool,
    right_stripped: bool,
}

#[derive(Debug)]
enum Raw {
    Content(Content),
    Mustache(Node, Strip),
    Block(Box<RawBlock>),
    Partial(PartialCall, Strip),
    Comment(Strip),
}

#[derive(Debug)]
struct RawBlock {
    kind: BlockKind,
    params: Vec<Expr>,
    hash: Vec<(String, Expr)>,
    span: Span,
    open_strip: Strip,
    inverse_strip: Strip,
    close_strip: Strip,
    program: Vec<Raw>,
    inverse: Option<Vec<Raw>>,
}

/// A block being read: its opening tag's name and what it holds so far.
struct Open {
    name: String,
    block: RawBlock,
}

/// Where a body is read: a prompt's own, or a partial's (which may not mark a cache
/// breakpoint).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    Prompt,
    Partial,
}

/// Parses a body (`source[base..]` is where it sits in its file) into nodes; `custom`
/// holds the names of the helpers registered from Rust.
pub(crate) fn parse(
    source: &str,
    body: Span,
    custom: &[&str],
    kind: Body,
) -> Result<Vec<Node>, LexError> {
    let items = lexer::items(&source[body.clone()], body.start)?;
    let mut root: Vec<Raw> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut breakpoints = 0;
    for item in items {
        let tag = match item {
            Item::Text(text) => {
                current(&mut root, &mut stack).push(Raw::Content(Content {
                    original: text.clone(),
                    value: text,
                    left_stripped: false,
                    right_stripped: false,
                }));
                continue;
            }
            Item::Tag(tag) => tag,
        };
        let strip = Strip {
            open: tag.strip_open,
            close: tag.strip_close,
        };
        match tag.kind {
            TagKind::Comment => current(&mut root, &mut stack).push(Raw::Comment(strip)),
            TagKind::Unsupported(what) => {
                return Err((
                    format!("{what} are not supported in dotprompt files"),
                    tag.span,
                    Some("dotprompt uses `{{#if}}`, `{{#unless}}`, `{{#each}}`, `{{#with}}`, `{{#ifEquals}}`, `{{#unlessEquals}}` and `{{> partial}}`".to_owned()),
                ));
            }
            TagKind::Mustache => {
                let node = mustache(source, &tag, custom)?;
                if is_breakpoint(&node) {
                    breakpoint(kind, stack.last().map(|o| o.name.as_str()), &tag)?;
                    breakpoints += 1;
                    if breakpoints > crate::chat::MAX_CACHE_BREAKPOINTS {
                        return Err((
                            format!(
                                "more than {} cache breakpoints",
                                crate::chat::MAX_CACHE_BREAKPOINTS
                            ),
                            tag.span,
                            Some("Anthropic's Messages API takes at most 4 `cache_control` marks in a request: keep the breakpoints that end the longest stable prefixes".to_owned()),
                        ));
                    }
                }
                current(&mut root, &mut stack).push(Raw::Mustache(node, strip));
            }
            TagKind::Partial => {
                let call = partial(source, &tag)?;
                current(&mut root, &mut stack).push(Raw::Partial(call, strip));
            }
            TagKind::Open => {
                if stack.len() >= MAX_DEPTH {
                    return Err((
                        format!("blocks nested more than {MAX_DEPTH} deep"),
                        tag.span,
                        Some("flatten the template".to_owned()),
                    ));
                }
                let (name, kind, params, hash) = block_open(source, &tag, custom)?;
                stack.push(Open {
                    name,
                    block: RawBlock {
                        kind,
                        params,
                        hash,
                        span: tag.span.clone(),
                        open_strip: strip,
                        inverse_strip: Strip::default(),
                        close_strip: Strip::default(),
                        program: Vec::new(),
                        inverse: None,
                    },
                });
            }
            TagKind::Else => {
                let inner = source[tag.inner.clone()].trim();
                let rest = inner.strip_prefix("else").unwrap_or(inner).trim();
                let Some(open) = stack.last_mut() else {
                    return Err((
                        "`{{else}}` outside a block".to_owned(),
                        tag.span,
                        Some("use it between `{{#if ...}}` and `{{/if}}`".to_owned()),
                    ));
                };
                if !rest.is_empty() {
                    return Err((
                        "chained `{{else ...}}` is not supported".to_owned(),
                        tag.span,
                        Some("nest a block inside `{{else}}` instead".to_owned()),
                    ));
                }
                if open.block.inverse.is_some() {
                    return Err((
                        format!("second `{{{{else}}}}` in `{{{{#{}}}}}`", open.name),
                        tag.span,
                        Some("a block has one `{{else}}`".to_owned()),
                    ));
                }
                open.block.inverse_strip = strip;
                open.block.inverse = Some(Vec::new());
            }
            TagKind::Close => {
                let name = source[tag.inner.clone()].trim();
                let Some(mut open) = stack.pop() else {
                    return Err((
                        format!("`{{{{/{name}}}}}` closes no block"),
                        tag.span,
                        Some("remove it, or open the block with `{{#...}}`".to_owned()),
                    ));
                };
                if open.name != name {
                    return Err((
                        format!("`{{{{#{}}}}}` is closed by `{{{{/{name}}}}}`", open.name),
                        tag.span,
                        Some(format!("close it with `{{{{/{}}}}}`", open.name)),
                    ));
                }
                open.block.close_strip = strip;
                current(&mut root, &mut stack).push(Raw::Block(Box::new(open.block)));
            }
        }
    }
    if let Some(open) = stack.pop() {
        return Err((
            format!("`{{{{#{}}}}}` is never closed", open.name),
            open.block.span,
            Some(format!("add `{{{{/{}}}}}`", open.name)),
        ));
    }
    program(&mut root, true);
    Ok(finish(root))
}

/// Whether a node is `{{cacheBreakpoint}}`.
fn is_breakpoint(node: &Node) -> bool {
    matches!(node, Node::Helper(call) if call.name == HelperName::CacheBreakpoint)
}

/// Refuses a `{{cacheBreakpoint}}` that is not at the top level of a prompt: inside the
/// block `block` (its helper's name), or in a partial.
fn breakpoint(kind: Body, block: Option<&str>, tag: &Tag) -> Result<(), LexError> {
    if let Some(block) = block {
        return Err((
            format!("`{{{{cacheBreakpoint}}}}` inside a `{{{{#{block}}}}}` block"),
            tag.span.clone(),
            Some("a cached prefix ends at one place whatever the values: put the breakpoint outside the block".to_owned()),
        ));
    }
    if kind == Body::Partial {
        return Err((
            "`{{cacheBreakpoint}}` in a partial".to_owned(),
            tag.span.clone(),
            Some("where a cached prefix ends is the prompt's choice: move the breakpoint into the prompt, after the `{{> partial}}` tag".to_owned()),
        ));
    }
    Ok(())
}

fn current<'a>(root: &'a mut Vec<Raw>, stack: &'a mut [Open]) -> &'a mut Vec<Raw> {
    match stack.last_mut() {
        Some(open) => match &mut open.block.inverse {
            Some(inverse) => inverse,
            None => &mut open.block.program,
        },
        None => root,
    }
}

/// The tokens of a tag; a subexpression or block parameters are refused here, once.
fn tag_tokens(source: &str, tag: &Tag) -> Result<Vec<(Token, Span)>, LexError> {
    let tokens = lexer::tokens(source, &tag.inner)?;
    for (token, span) in &tokens {
        match token {
            Token::OpenParen | Token::CloseParen => {
                return Err((
                    "subexpressions (`(helper ...)`) are not supported".to_owned(),
                    span.clone(),
                    Some("pass a path or a literal".to_owned()),
                ));
            }
            Token::Pipe => {
                return Err((
                    "block parameters (`as |name|`) are not supported".to_owned(),
                    span.clone(),
                    Some("use `this` and `@index`/`@key` inside the block".to_owned()),
                ));
            }
            _ => {}
        }
    }
    Ok(tokens)
}

/// Reads `params... key=value...` from tokens.
fn arguments(tokens: &[(Token, Span)], tag: &Tag) -> Result<(Vec<Expr>, Hash), LexError> {
    let mut params = Vec::new();
    let mut hash: Vec<(String, Expr)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if let (
            Token::Id {
                name,
                bracketed: false,
            },
            span,
        ) = &tokens[i]
            && matches!(tokens.get(i + 1), Some((Token::Equals, _)))
        {
            let (value, next) = expr(tokens, i + 2, tag)?;
            if hash.iter().any(|(k, _)| k == name) {
                return Err((format!("`{name}=` is given twice"), span.clone(), None));
            }
            hash.push((name.clone(), value));
            i = next;
            continue;
        }
        if !hash.is_empty() {
            return Err((
                "a positional argument after `key=value` arguments".to_owned(),
                tokens[i].1.clone(),
                Some("put positional arguments first".to_owned()),
            ));
        }
        let (value, next) = expr(tokens, i, tag)?;
        params.push(value);
        i = next;
    }
    Ok((params, hash))
}

/// One argument starting at token `i`: a literal or a path. Returns it and the next index.
fn expr(tokens: &[(Token, Span)], i: usize, tag: &Tag) -> Result<(Expr, usize), LexError> {
    match tokens.get(i) {
        Some((Token::Literal(value), _)) => Ok((Expr::Literal(value.clone()), i + 1)),
        Some(_) => {
            let (path, next) = path(tokens, i)?;
            Ok((Expr::Path(path), next))
        }
        None => Err((
            "a value is missing after `=`".to_owned(),
            tag.span.clone(),
            Some("write `key=value`".to_owned()),
        )),
    }
}

/// A path starting at token `i`.
fn path(tokens: &[(Token, Span)], mut i: usize) -> Result<(Path, usize), LexError> {
    let start = tokens[i].1.start;
    let mut data = false;
    if tokens[i].0 == Token::At {
        data = true;
        i += 1;
    }
    let mut segments: Vec<(String, bool, Span)> = Vec::new();
    loop {
        match tokens.get(i) {
            Some((Token::Id { name, bracketed }, span)) => {
                segments.push((name.clone(), *bracketed, span.clone()));
                i += 1;
            }
            Some((other, span)) => {
                return Err((
                    format!("expected a name, found {}", describe(other)),
                    span.clone(),
                    None,
                ));
            }
            None => {
                let at = tokens[i - 1].1.clone();
                return Err(("expected a name after it".to_owned(), at, None));
            }
        }
        // Segments join when they touch a separator.
        match tokens.get(i) {
            Some((Token::Sep, sep)) if sep.start == segments.last().map_or(0, |s| s.2.end) => {
                i += 1;
            }
            _ => break,
        }
    }
    let end = segments.last().map_or(start, |s| s.2.end);
    let mut depth = 0;
    let mut parts = Vec::new();
    let mut original = String::new();
    for (n, (name, bracketed, span)) in segments.iter().enumerate() {
        if n > 0 {
            original.push('.');
        }
        original.push_str(name);
        if !bracketed && (name == ".." || name == "." || name == "this") {
            if !parts.is_empty() {
                return Err((
                    format!("invalid path: `{name}` after a name"),
                    span.clone(),
                    Some("`this` and `../` go at the start of a path".to_owned()),
                ));
            }
            if name == ".." {
                depth += 1;
            }
            continue;
        }
        parts.push(name.clone());
    }
    if data {
        original.insert(0, '@');
        if depth > 0 {
            return Err((
                "`@../` data paths are not supported".to_owned(),
                start..end,
                Some("read the value before entering the block".to_owned()),
            ));
        }
        if parts.is_empty() {
            return Err(("`@` needs a name".to_owned(), start..end, None));
        }
    }
    Ok((
        Path {
            data,
            depth,
            parts,
            original,
            span: start..end,
        },
        i,
    ))
}

fn describe(token: &Token) -> &'static str {
    match token {
        Token::Id { .. } => "a name",
        Token::Literal(_) => "a literal",
        Token::At => "`@`",
        Token::Sep => "a separator",
        Token::Equals => "`=`",
        Token::OpenParen => "`(`",
        Token::CloseParen => "`)`",
        Token::Pipe => "`|`",
    }
}

const HELPERS: &str = "role, history, section, media, json, lookup, log, cacheBreakpoint";
const BLOCKS: &str = "if, unless, each, with, ifEquals, unlessEquals";

/// The name a tag calls as a helper, as Handlebars classifies it: one plain segment (not
/// `a.b`, not `[a]`).
fn simple_name(tokens: &[(Token, Span)]) -> Option<&str> {
    match tokens.first() {
        Some((
            Token::Id {
                name,
                bracketed: false,
            },
            span,
        )) if tokens
            .get(1)
            .is_none_or(|t| t.0 != Token::Sep || t.1.start != span.end) =>
        {
            Some(name)
        }
        _ => None,
    }
}

/// `{{value}}` or `{{helper args}}`.
fn mustache(source: &str, tag: &Tag, custom: &[&str]) -> Result<Node, LexError> {
    let tokens = tag_tokens(source, tag)?;
    if tokens.is_empty() {
        return Err((
            "empty `{{}}`".to_owned(),
            tag.span.clone(),
            Some("write a name inside".to_owned()),
        ));
    }
    let simple = simple_name(&tokens);
    if let Some(name) = simple {
        // Handlebars calls a known helper by its name alone too: a block helper's tag
        // without `#` is then a call without a body, which fails in JavaScript (`{{if}}`:
        // "#if requires exactly one argument", `{{if x}}`: "options.fn is not a
        // function"), whatever the data.
        if super::helpers::BLOCK_HELPERS.contains(&name) {
            let args = source[tag.inner.clone()].trim()[name.len()..].trim();
            let usage = if args.is_empty() {
                format!("{{{{#{name} value}}}}…{{{{/{name}}}}}")
            } else {
                format!("{{{{#{name} {args}}}}}…{{{{/{name}}}}}")
            };
            return Err((
                format!(
                    "`{name}` is a block helper: `{{{{{name}}}}}` without `#` has no body to render"
                ),
                tokens[0].1.clone(),
                Some(format!("write `{usage}`")),
            ));
        }
        if super::helpers::INTERNAL_HELPERS.contains(&name) {
            return Err((
                format!("`{name}` is internal to Handlebars: a template cannot call it"),
                tokens[0].1.clone(),
                Some("remove the tag".to_owned()),
            ));
        }
    }
    let helper = simple.and_then(|name| {
        helper_name(name).or_else(|| custom.contains(&name).then_some(HelperName::Custom))
    });
    let Some(name) = helper else {
        if let (Token::Literal(value), _) = &tokens[0]
            && tokens.len() == 1
        {
            return Ok(Node::Value(Expr::Literal(value.clone())));
        }
        let (path, next) = path(&tokens, 0)?;
        if next < tokens.len() {
            let plain = if let [_] = path.parts.as_slice() {
                !path.data
            } else {
                false
            };
            let help = if plain {
                let known = HELPERS.split(", ").chain(custom.iter().copied());
                match crate::suggest::closest(&path.original, known) {
                    Some(close) => format!("did you mean `{{{{{close} ...}}}}`?"),
                    None if custom.is_empty() => format!(
                        "dotprompt's helpers are {HELPERS}; blocks are {BLOCKS}; register others from Rust (`Registry::define_helper`, or `helpers(name = function)` in a derive's `#[prompt]`)"
                    ),
                    None => format!(
                        "the helpers are {HELPERS}, {}; blocks are {BLOCKS}",
                        custom.join(", ")
                    ),
                }
            } else {
                "a value takes no arguments".to_owned()
            };
            return Err((
                format!("unknown helper `{}`", path.original),
                path.span,
                Some(help),
            ));
        }
        return Ok(Node::Value(Expr::Path(path)));
    };
    let (params, hash) = arguments(&tokens[1..], tag)?;
    check_helper(name, &tokens[0].0, &params, &hash, tag)?;
    Ok(Node::Helper(HelperCall {
        name,
        custom: match name {
            HelperName::Custom => simple.unwrap_or_default().to_owned(),
            _ => String::new(),
        },
        params,
        hash,
        span: tag.span.clone(),
    }))
}

fn helper_name(name: &str) -> Option<HelperName> {
    Some(match name {
        "role" => HelperName::Role,
        "history" => HelperName::History,
        "section" => HelperName::Section,
        "media" => HelperName::Media,
        "json" => HelperName::Json,
        "lookup" => HelperName::Lookup,
        "log" => HelperName::Log,
        "cacheBreakpoint" => HelperName::CacheBreakpoint,
        _ => return None,
    })
}

/// Arity and hash keys of an inline helper.
fn check_helper(
    name: HelperName,
    token: &Token,
    params: &[Expr],
    hash: &[(String, Expr)],
    tag: &Tag,
) -> Result<(), LexError> {
    let Token::Id { name: written, .. } = token else {
        return Ok(());
    };
    let (count, keys, usage): (usize, &[&str], &str) = match name {
        HelperName::Role => (1, &[], "{{role \"user\"}}"),
        HelperName::History => (0, &[], "{{history}}"),
        HelperName::CacheBreakpoint => (0, &[], "{{cacheBreakpoint}}"),
        HelperName::Section => (1, &[], "{{section \"name\"}}"),
        HelperName::Media => (
            0,
            &["url", "contentType"],
            "{{media url=image contentType=\"image/png\"}}",
        ),
        HelperName::Json => (1, &["indent"], "{{json value indent=2}}"),
        HelperName::Lookup => (2, &[], "{{lookup value key}}"),
        // Any arguments: they are what JavaScript logs.
        HelperName::Log | HelperName::Custom => return Ok(()),
    };
    if params.len() != count {
        return Err((
            format!(
                "`{written}` takes {count} positional argument{}, found {}",
                if count == 1 { "" } else { "s" },
                params.len()
            ),
            tag.span.clone(),
            Some(format!("write `{usage}`")),
        ));
    }
    if let Some((key, _)) = hash.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
        return Err((
            format!("`{written}` has no argument `{key}`"),
            tag.span.clone(),
            Some(match keys {
                [] => format!("write `{usage}`"),
                _ => format!("its arguments are {}", keys.join(", ")),
            }),
        ));
    }
    if name == HelperName::Role
        && let Some(Expr::Literal(Some(super::Value::String(role)))) = params.first()
        && !super::render::well_formed_role(role)
    {
        let lower = role
            .chars()
            .filter(char::is_ascii_alphabetic)
            .collect::<String>()
            .to_ascii_lowercase();
        let help = if lower.is_empty() {
            "write `{{role \"user\"}}`, `{{role \"model\"}}` or `{{role \"system\"}}`".to_owned()
        } else {
            format!("write `{{{{role \"{lower}\"}}}}`")
        };
        return Err((
            format!("`{role}` is not a role dotprompt recognizes: roles are lowercase letters"),
            tag.span.clone(),
            Some(help),
        ));
    }
    if name == HelperName::Media && !hash.iter().any(|(k, _)| k == "url") {
        return Err((
            "`media` needs `url=`".to_owned(),
            tag.span.clone(),
            Some(format!("write `{usage}`")),
        ));
    }
    Ok(())
}

/// `{{#name args}}`.
fn block_open(
    source: &str,
    tag: &Tag,
    custom: &[&str],
) -> Result<(String, BlockKind, Vec<Expr>, Hash), LexError> {
    let tokens = tag_tokens(source, tag)?;
    let Some((
        Token::Id {
            name,
            bracketed: false,
        },
        name_span,
    )) = tokens.first()
    else {
        return Err((
            "a block needs a helper name".to_owned(),
            tag.span.clone(),
            Some(format!("blocks are {BLOCKS}")),
        ));
    };
    let kind = match name.as_str() {
        "if" => BlockKind::If,
        "unless" => BlockKind::Unless,
        "each" => BlockKind::Each,
        "with" => BlockKind::With,
        "ifEquals" => BlockKind::IfEquals,
        "unlessEquals" => BlockKind::UnlessEquals,
        other if helper_name(other).is_some() || custom.contains(&other) => {
            // JavaScript calls it and drops the body: a body that never renders is a
            // mistake, refused here.
            return Err((
                format!(
                    "`{other}` is an inline helper: a block `{{{{#{other}}}}}` would never render its body"
                ),
                name_span.clone(),
                Some(format!(
                    "write `{{{{{other} ...}}}}` without `#` and without `{{{{/{other}}}}}`"
                )),
            ));
        }
        other => {
            let suggestion = crate::suggest::closest(other, BLOCKS.split(", "))
                .map(|s| format!("did you mean `{{{{#{s}}}}}`?"))
                .unwrap_or_else(|| format!("blocks are {BLOCKS}"));
            return Err((
                format!("unknown block helper `{other}`"),
                name_span.clone(),
                Some(suggestion),
            ));
        }
    };
    let (params, hash) = arguments(&tokens[1..], tag)?;
    let count = match kind {
        BlockKind::IfEquals | BlockKind::UnlessEquals => 2,
        _ => 1,
    };
    if params.len() != count {
        return Err((
            format!(
                "`#{name}` takes {count} argument{}, found {}",
                if count == 1 { "" } else { "s" },
                params.len()
            ),
            tag.span.clone(),
            Some(if count == 1 {
                format!("write `{{{{#{name} value}}}}`")
            } else {
                format!("write `{{{{#{name} a b}}}}`")
            }),
        ));
    }
    let allowed: &[&str] = if kind == BlockKind::If || kind == BlockKind::Unless {
        &["includeZero"]
    } else {
        &[]
    };
    if let Some((key, _)) = hash.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        return Err((
            format!("`#{name}` has no argument `{key}`"),
            tag.span.clone(),
            None,
        ));
    }
    Ok((name.clone(), kind, params, hash))
}

/// `{{> name}}`, `{{> name context}}`, `{{> name key=value}}`.
fn partial(source: &str, tag: &Tag) -> Result<PartialCall, LexError> {
    let tokens = tag_tokens(source, tag)?;
    // The name: an identifier path (`a/b` joined back) or a string literal.
    let (name, next) = match tokens.first() {
        Some((Token::Literal(Some(super::Value::String(s))), _)) => (s.clone(), 1),
        Some((Token::Id { .. }, _)) => {
            let mut name = String::new();
            let mut i = 0;
            let mut end = tokens[0].1.start;
            while let Some((token, span)) = tokens.get(i) {
                if span.start != end && i > 0 {
                    break;
                }
                match token {
                    Token::Id { name: part, .. } => name.push_str(part),
                    Token::Sep => name.push_str(&source[span.clone()]),
                    _ => break,
                }
                end = span.end;
                i += 1;
            }
            (name, i)
        }
        _ => {
            return Err((
                "a partial needs a name".to_owned(),
                tag.span.clone(),
                Some("write `{{> name}}`".to_owned()),
            ));
        }
    };
    let (mut params, hash) = arguments(&tokens[next..], tag)?;
    if params.len() > 1 {
        return Err((
            "a partial takes at most one context argument".to_owned(),
            tag.span.clone(),
            Some("pass other values as `key=value`".to_owned()),
        ));
    }
    Ok(PartialCall {
        name,
        context: params.pop(),
        hash,
        indent: String::new(),
        span: tag.span.clone(),
    })
}

// ---- whitespace control -------------------------------------------------------------

/// What a statement asks of its neighbours.
#[derive(Default)]
struct Request {
    open: bool,
    close: bool,
    open_standalone: bool,
    close_standalone: bool,
    inline_standalone: bool,
}

fn program(body: &mut [Raw], is_root: bool) {
    for i in 0..body.len() {
        let Some(strip) = accept(&mut body[i]) else {
            continue;
        };
        let prev_ws = is_prev_whitespace(body, Some(i), is_root);
        let next_ws = is_next_whitespace(body, Some(i), is_root);
        let open_standalone = strip.open_standalone && prev_ws;
        let close_standalone = strip.close_standalone && next_ws;
        let inline_standalone = strip.inline_standalone && prev_ws && next_ws;
        if strip.close {
            omit_right(body, Some(i), true);
        }
        if strip.open {
            omit_left(body, Some(i), true);
        }
        if inline_standalone {
            omit_right(body, Some(i), false);
            if omit_left(body, Some(i), false) {
                let indent = match &body[i - 1] {
                    Raw::Content(c) => trailing_blanks(&c.original).to_owned(),
                    _ => String::new(),
                };
                if let Raw::Partial(call, _) = &mut body[i] {
                    call.indent = indent;
                }
            }
        }
        if open_standalone {
            if let Raw::Block(block) = &mut body[i] {
                omit_right(&mut block.program, None, false);
            }
            omit_left(body, Some(i), false);
        }
        if close_standalone {
            omit_right(body, Some(i), false);
            if let Raw::Block(block) = &mut body[i] {
                let last = block.inverse.as_mut().unwrap_or(&mut block.program);
                omit_left(last, None, false);
            }
        }
    }
}

fn accept(node: &mut Raw) -> Option<Request> {
    match node {
        Raw::Content(_) => None,
        // A cache breakpoint writes nothing: alone on its line, it takes the line with it,
        // as a comment does.
        Raw::Mustache(node, strip) => Some(Request {
            open: strip.open,
            close: strip.close,
            inline_standalone: is_breakpoint(node),
            ..Request::default()
        }),
        Raw::Partial(_, strip) | Raw::Comment(strip) => Some(Request {
            open: strip.open,
            close: strip.close,
            inline_standalone: true,
            ..Request::default()
        }),
        Raw::Block(block) => Some(block_request(block)),
    }
}

fn block_request(block: &mut RawBlock) -> Request {
    program(&mut block.program, false);
    if let Some(inverse) = &mut block.inverse {
        program(inverse, false);
    }
    let first = block.inverse.as_ref().unwrap_or(&block.program);
    let request = Request {
        open: block.open_strip.open,
        close: block.close_strip.close,
        open_standalone: is_next_whitespace(&block.program, None, false),
        close_standalone: is_prev_whitespace(first, None, false),
        inline_standalone: false,
    };
    if block.open_strip.close {
        omit_right(&mut block.program, None, true);
    }
    if let Some(inverse) = &mut block.inverse {
        if block.inverse_strip.open {
            omit_left(&mut block.program, None, true);
        }
        if block.inverse_strip.close {
            omit_right(inverse, None, true);
        }
        if block.close_strip.open {
            omit_left(inverse, None, true);
        }
        // A standalone `{{else}}`.
        if is_prev_whitespace(&block.program, None, false)
            && is_next_whitespace(inverse, None, false)
        {
            omit_left(&mut block.program, None, false);
            omit_right(inverse, None, false);
        }
    } else if block.close_strip.open {
        omit_left(&mut block.program, None, true);
    }
    request
}

fn is_ws(c: char) -> bool {
    // JavaScript's `\s`: Unicode white space plus the byte order mark.
    c.is_whitespace() || c == '\u{feff}'
}

/// Whether the statement before `i` (the last one when `None`) ends its line with only
/// white space after its last line break; at the start, what `is_root` says.
fn is_prev_whitespace(body: &[Raw], i: Option<usize>, is_root: bool) -> bool {
    let i = i.unwrap_or(body.len());
    let Some(prev) = i.checked_sub(1).and_then(|p| body.get(p)) else {
        return is_root;
    };
    let Raw::Content(content) = prev else {
        return false;
    };
    let sibling = i >= 2;
    let tail = content.original.trim_end_matches(is_ws);
    let blanks = &content.original[tail.len()..];
    blanks.contains('\n') || (!sibling && is_root && tail.is_empty())
}

/// Whether the statement after `i` (the first one when `None`) starts with only white
/// space up to a line break; at the end, what `is_root` says.
fn is_next_whitespace(body: &[Raw], i: Option<usize>, is_root: bool) -> bool {
    let next_index = i.map_or(0, |i| i + 1);
    let Some(next) = body.get(next_index) else {
        return is_root;
    };
    let Raw::Content(content) = next else {
        return false;
    };
    let sibling = body.len() > next_index + 1;
    let head = content.original.trim_start_matches(is_ws);
    let blanks = &content.original[..content.original.len() - head.len()];
    blanks.contains('\n') || (!sibling && is_root && head.is_empty())
}

/// Strips the start of the content after `i` (the first statement when `None`): all
/// white space when `multiple`, else blanks up to and with one line break.
fn omit_right(body: &mut [Raw], i: Option<usize>, multiple: bool) {
    let index = i.map_or(0, |i| i + 1);
    let Some(Raw::Content(content)) = body.get_mut(index) else {
        return;
    };
    if !multiple && content.right_stripped {
        return;
    }
    let before = content.value.len();
    let rest = if multiple {
        content.value.trim_start_matches(is_ws)
    } else {
        let blanks = content.value.trim_start_matches([' ', '\t']);
        let blanks = blanks.strip_prefix('\r').unwrap_or(blanks);
        blanks.strip_prefix('\n').unwrap_or(blanks)
    };
    let cut = before - rest.len();
    content.value.drain(..cut);
    content.right_stripped = cut > 0;
}

/// Strips the end of the content before `i` (the last statement when `None`): all white
/// space when `multiple`, else the blanks ending its last line. Returns whether it did.
fn omit_left(body: &mut [Raw], i: Option<usize>, multiple: bool) -> bool {
    let index = match i {
        Some(0) => return false,
        Some(i) => i - 1,
        None => match body.len().checked_sub(1) {
            Some(last) => last,
            None => return false,
        },
    };
    let Some(Raw::Content(content)) = body.get_mut(index) else {
        return false;
    };
    if !multiple && content.left_stripped {
        return false;
    }
    let kept = if multiple {
        content.value.trim_end_matches(is_ws).len()
    } else {
        content.value.trim_end_matches([' ', '\t']).len()
    };
    let changed = kept != content.value.len();
    content.value.truncate(kept);
    content.left_stripped = changed;
    changed
}

fn trailing_blanks(text: &str) -> &str {
    &text[text.trim_end_matches([' ', '\t']).len()..]
}

/// The finished tree: comments gone, empty text dropped.
fn finish(body: Vec<Raw>) -> Vec<Node> {
    let mut out = Vec::with_capacity(body.len());
    for raw in body {
        match raw {
            Raw::Content(content) => {
                if content.value.is_empty() {
                    continue;
                }
                if let Some(Node::Text(last)) = out.last_mut() {
                    last.push_str(&content.value);
                } else {
                    out.push(Node::Text(content.value));
                }
            }
            Raw::Mustache(node, _) => out.push(node),
            Raw::Partial(call, _) => out.push(Node::Partial(call)),
            Raw::Comment(_) => {}
            Raw::Block(block) => {
                let block = *block;
                out.push(Node::Block(Block {
                    kind: block.kind,
                    params: block.params,
                    hash: block.hash,
                    body: finish(block.program),
                    inverse: block.inverse.map(finish).unwrap_or_default(),
                    span: block.span,
                }));
            }
        }
    }
    out
}
