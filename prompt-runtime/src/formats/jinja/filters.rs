//! The filters that came after the first seven (`default`, `join`, `trim`, `upper`,
//! `lower`, `length`, `tojson`, which the renderer writes straight into the text), each as
//! Jinja2 computes it, on a value that is there and arguments already evaluated.
//!
//! Where Jinja2 gives a generator (`map`, `select`, `reject`, `selectattr`,
//! `rejectattr`, `unique`, `batch`, `items`, and `reverse` of a list), this gives the
//! list it would yield: looping over it, joining it, counting it and `| list` give the
//! same; printing it shows the list where Jinja2 shows `<generator object …>`.

use super::data::{Num, Number, Value};
use super::expr::{BinOp, Filter, Test};
use super::ops::{self, Budget, Done, Fail, size, text};
use super::value::{a_type, equal, order, truthy};
use crate::python::space::is_space;
use std::cmp::Ordering;

fn arg_error<T>(i: usize, message: impl Into<String>) -> Done<T> {
    Err(Fail::Arg(i, message.into()))
}

fn here<T>(message: impl Into<String>) -> Done<T> {
    Err(Fail::Here(message.into()))
}

/// The argument `i`, `None` when it was not given.
fn arg(args: &[Value], i: usize) -> Option<&Value> {
    args.get(i).filter(|v| !v.is_null())
}

fn bool_arg(args: &[Value], i: usize) -> bool {
    args.get(i).is_some_and(truthy)
}

fn int_arg(args: &[Value], i: usize, default: i128) -> Done<i128> {
    match args.get(i) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(i128::from(*b)),
        Some(Value::Number(Number(Num::Int(n)))) => Ok(*n),
        Some(other) => arg_error(i, format!("expected an integer, not {}", a_type(other))),
    }
}

/// `value | filter(args)`. `None` stands for Jinja2's undefined (`first` of an empty
/// list).
pub(crate) fn apply(
    filter: Filter,
    value: &Value,
    args: &[Value],
    budget: &mut Budget,
) -> Done<Option<Value>> {
    apply_inline(filter, value, args, budget)
}

/// [`apply`], inlined where it is called: a compiled render's call for one filter
/// (`compiled::apply`, a copy per filter) keeps that filter's code alone.
#[inline(always)]
pub(crate) fn apply_inline(
    filter: Filter,
    value: &Value,
    args: &[Value],
    budget: &mut Budget,
) -> Done<Option<Value>> {
    let items = |value: &Value, budget: &mut Budget| -> Done<Vec<Value>> {
        budget.bytes(size(value))?;
        budget.steps(len_of(value))?;
        ops::iterate(value).map_err(Fail::Here)
    };
    // Jinja2's `map`, `select`, `reject`, `selectattr` and `rejectattr` go over a value
    // only when it is true: `none`, `0` or `''` give nothing, their arguments unread.
    if matches!(
        filter,
        Filter::Map
            | Filter::MapAttr
            | Filter::Select
            | Filter::Reject
            | Filter::Selectattr
            | Filter::Rejectattr
    ) && !truthy(value)
    {
        return Ok(Some(Value::Array(Vec::new())));
    }
    Ok(Some(match filter {
        Filter::Format => Value::String(super::printf::percent(
            &text(value),
            super::printf::Operand::Tuple(args),
            budget,
        )?),
        Filter::FormatNamed => Value::String(super::printf::percent(
            &text(value),
            super::printf::Operand::Mapping(args.first().unwrap_or(&Value::Null)),
            budget,
        )?),
        Filter::Groupby => groupby(items(value, budget)?, args, budget)?,
        Filter::List => Value::Array(items(value, budget)?),
        Filter::Int => int(value, args)?,
        Filter::Float => float(value, args),
        Filter::String => Value::String(text(value)),
        Filter::Abs => match value {
            Value::Bool(b) => Value::from(i128::from(*b)),
            Value::Number(Number(Num::Float(f))) => Value::from(f.abs()),
            Value::Number(Number(Num::Big(d))) => Value::Number(
                Number::from_digits(d.trim_start_matches('-')).unwrap_or(Number::from(0)),
            ),
            Value::Number(Number(Num::Int(i))) => Value::from(
                i.checked_abs()
                    .ok_or_else(|| Fail::Here("`abs` gives an integer beyond 128 bits".into()))?,
            ),
            other => return here(format!("bad operand type for abs(): {}", a_type(other))),
        },
        Filter::Round => round(value, args)?,
        Filter::Title => Value::String(ops::title_filter(&text(value))),
        Filter::Capitalize => Value::String(ops::capitalize(&text(value))),
        Filter::Replace => {
            let count = match arg(args, 2) {
                None => -1,
                Some(_) => int_arg(args, 2, -1)?,
            };
            let (old, new) = (
                text(args.first().unwrap_or(&Value::Null)),
                text(args.get(1).unwrap_or(&Value::Null)),
            );
            Value::String(ops::replace(&text(value), &old, &new, count, budget)?)
        }
        Filter::First => return Ok(items(value, budget)?.into_iter().next()),
        Filter::Last => return Ok(items(value, budget)?.pop()),
        Filter::Min | Filter::Max => {
            let all = items(value, budget)?;
            let key = Key::new(bool_arg(args, 0), arg(args, 1), 1)?;
            let mut best: Option<(Value, Value)> = None;
            for item in all {
                let k = key.of(&item)?;
                let better = match &best {
                    None => true,
                    Some((_, b)) => {
                        let o = compare(&k, b)?;
                        if filter == Filter::Min {
                            o.is_lt()
                        } else {
                            o.is_gt()
                        }
                    }
                };
                if better {
                    best = Some((item, k));
                }
            }
            return Ok(best.map(|(item, _)| item));
        }
        Filter::Sum => {
            let key = Key::new(true, arg(args, 0), 0)?;
            let mut total = args.get(1).cloned().unwrap_or(Value::from(0));
            for item in items(value, budget)? {
                total = ops::binary(BinOp::Add, &total, &key.of(&item)?, budget)?;
            }
            total
        }
        Filter::Sort => {
            let mut all = items(value, budget)?;
            let reverse = bool_arg(args, 0);
            let keys = Keys::new(bool_arg(args, 1), arg(args, 2), 2)?;
            sort(&mut all, &keys, reverse, budget)?;
            Value::Array(all)
        }
        Filter::Unique => {
            let key = Key::new(bool_arg(args, 0), arg(args, 1), 1)?;
            let mut seen: Vec<Value> = Vec::new();
            let mut out = Vec::new();
            for item in items(value, budget)? {
                let k = key.of(&item)?;
                if matches!(k, Value::Array(_) | Value::Object(_)) {
                    return here(format!(
                        "unhashable type: '{}'",
                        super::value::type_name(&k)
                    ));
                }
                budget.steps(seen.len())?;
                if !seen.iter().any(|s| equal(s, &k)) {
                    seen.push(k);
                    out.push(item);
                }
            }
            Value::Array(out)
        }
        Filter::Reverse => match value {
            Value::String(s) => Value::String(s.chars().rev().collect()),
            other => {
                let mut all = items(other, budget)?;
                all.reverse();
                Value::Array(all)
            }
        },
        Filter::Map => {
            let Some(Value::String(name)) = args.first() else {
                return arg_error(0, "`map` takes a filter's name, or `attribute=`");
            };
            let Some(&(_, inner, _)) = Filter::ALL.iter().find(|f| f.0 == name) else {
                return arg_error(0, format!("no filter `{name}`"));
            };
            if matches!(
                inner,
                Filter::Map | Filter::MapAttr | Filter::Select | Filter::Reject
            ) {
                return arg_error(0, format!("`map` does not nest `{name}`"));
            }
            let mut out = Vec::new();
            for item in items(value, budget)? {
                out.push(apply_simple(inner, &item, &args[1..], budget)?);
            }
            Value::Array(out)
        }
        Filter::MapAttr => {
            let Some(Value::String(path)) = args.first() else {
                return arg_error(0, "`attribute` is a name, or names joined by `.`");
            };
            let mut out = Vec::new();
            for item in items(value, budget)? {
                match attribute(&item, path) {
                    Some(found) => out.push(found.clone()),
                    None => match arg(args, 1) {
                        Some(default) => out.push(default.clone()),
                        None => {
                            return here(format!(
                                "an item has no `{path}`: give `default=` for those"
                            ));
                        }
                    },
                }
            }
            Value::Array(out)
        }
        Filter::Select | Filter::Reject | Filter::Selectattr | Filter::Rejectattr => {
            let by_attr = matches!(filter, Filter::Selectattr | Filter::Rejectattr);
            let keep = matches!(filter, Filter::Select | Filter::Selectattr);
            let path = if by_attr {
                match args.first() {
                    Some(Value::String(p)) => Some(p.as_str()),
                    _ => return arg_error(0, "the attribute is a name, or names joined by `.`"),
                }
            } else {
                None
            };
            let rest = &args[usize::from(by_attr)..];
            let test = match rest.first() {
                None | Some(Value::Null) => None,
                Some(Value::String(name)) => match Test::named(name) {
                    Some((test, _)) => Some(test),
                    None => {
                        return arg_error(usize::from(by_attr), format!("no test named `{name}`"));
                    }
                },
                Some(other) => {
                    return arg_error(
                        usize::from(by_attr),
                        format!("a test's name, not {}", a_type(other)),
                    );
                }
            };
            let mut out = Vec::new();
            for item in items(value, budget)? {
                let subject = match path {
                    Some(p) => attribute(&item, p),
                    None => Some(&item),
                };
                let holds = match test {
                    None => subject.is_some_and(truthy),
                    Some(test) => ops::test(test, subject, rest.get(1), budget)?,
                };
                if holds == keep {
                    out.push(item);
                }
            }
            Value::Array(out)
        }
        Filter::Dictsort => {
            let Value::Object(map) = value else {
                return here(format!("`dictsort` needs a dict, not {}", a_type(value)));
            };
            let by_value = match args.get(1) {
                None => false,
                Some(Value::String(by)) if by == "key" => false,
                Some(Value::String(by)) if by == "value" => true,
                _ => return arg_error(1, "You can only sort by either \"key\" or \"value\""),
            };
            budget.bytes(size(value))?;
            let mut pairs: Vec<Value> = map
                .iter()
                .map(|(k, v)| Value::Tuple(vec![Value::from(k), v.clone()]))
                .collect();
            let keys = Keys::new(bool_arg(args, 0), None, 0)?.at(usize::from(by_value));
            sort(&mut pairs, &keys, bool_arg(args, 2), budget)?;
            Value::Array(pairs)
        }
        Filter::Items => {
            let Value::Object(map) = value else {
                return here("Can only get item pairs from a mapping.");
            };
            budget.bytes(size(value))?;
            Value::Array(
                map.iter()
                    .map(|(k, v)| Value::Tuple(vec![Value::from(k), v.clone()]))
                    .collect(),
            )
        }
        Filter::Indent => Value::String(indent(&text(value), args, budget)?),
        Filter::Truncate => Value::String(truncate(&text(value), args)?),
        Filter::Wordcount => Value::from(
            text(value)
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .count(),
        ),
        Filter::Wordwrap => Value::String(wordwrap(&text(value), args, budget)?),
        Filter::Batch => {
            let count = int_arg(args, 0, 1)?;
            let all = items(value, budget)?;
            let fill = arg(args, 1);
            let Ok(count) = usize::try_from(count) else {
                return arg_error(0, "a batch holds a positive number of items");
            };
            if count == 0 {
                return arg_error(0, "a batch holds a positive number of items");
            }
            let mut out: Vec<Value> = all
                .chunks(count)
                .map(|c| Value::Array(c.to_vec()))
                .collect();
            if let (Some(fill), Some(Value::Array(last))) = (fill, out.last_mut())
                && last.len() < count
            {
                budget.bytes(size(fill).saturating_mul(count))?;
                last.resize(count, fill.clone());
            }
            Value::Array(out)
        }
        Filter::Center => {
            let s = text(value);
            let width = int_arg(args, 0, 80)?;
            let len = s.chars().count() as i128;
            if width <= len {
                Value::String(s)
            } else {
                let margin = width - len;
                let left = margin / 2 + (margin & width & 1);
                budget.bytes(usize::try_from(margin).unwrap_or(usize::MAX))?;
                let pad = |n: i128| " ".repeat(usize::try_from(n).unwrap_or(0));
                Value::String(format!("{}{s}{}", pad(left), pad(margin - left)))
            }
        }
        Filter::Escape => {
            let escaped = crate::python::markup::escape(&text(value));
            budget.bytes(escaped.len())?;
            Value::String(escaped)
        }
        Filter::Striptags => {
            let s = text(value);
            budget.bytes(s.len())?;
            Value::String(crate::python::markup::striptags(&s))
        }
        Filter::Urlencode => Value::String(urlencode(value, budget)?),
        Filter::Filesizeformat => Value::String(filesizeformat(value, bool_arg(args, 0))?),
        Filter::Slice => slice(items(value, budget)?, args, budget)?,
        Filter::Xmlattr => Value::String(xmlattr(value, args, budget)?),
        Filter::Pprint => {
            budget.steps(len_of(value))?;
            let text = crate::value::pprint::pformat(value, budget.bytes).ok_or(Fail::Large)?;
            budget.bytes(text.len())?;
            Value::String(text)
        }
        Filter::Default
        | Filter::Join
        | Filter::Trim
        | Filter::Upper
        | Filter::Lower
        | Filter::Length
        | Filter::Tojson => return apply_first(filter, value, args, budget).map(Some),
    }))
}

/// Jinja2's `urlencode`: text (and anything not iterable, as its `str`) quoted as
/// `urllib.parse.quote` quotes it, `/` kept; a dict's items, or a list of pairs, as a
/// query string, each key and value quoted with `/` too and spaces as `+`.
fn urlencode(value: &Value, budget: &mut Budget) -> Done<String> {
    budget.bytes(size(value).saturating_mul(3))?;
    let pairs = match value {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (Value::from(k), v.clone()))
            .collect(),
        Value::Array(items) | Value::Tuple(items) => {
            let mut pairs = Vec::with_capacity(items.len());
            for item in items {
                let parts = ops::iterate(item).map_err(Fail::Here)?;
                match <[Value; 2]>::try_from(parts) {
                    Ok([k, v]) => pairs.push((k, v)),
                    Err(parts) if parts.len() > 2 => {
                        return here("too many values to unpack (expected 2)");
                    }
                    Err(parts) => {
                        return here(format!(
                            "not enough values to unpack (expected 2, got {})",
                            parts.len()
                        ));
                    }
                }
            }
            pairs
        }
        other => return Ok(url_quote(&text(other), false)),
    };
    let mut out = String::new();
    for (k, v) in &pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(&url_quote(&text(k), true));
        out.push('=');
        out.push_str(&url_quote(&text(v), true));
    }
    Ok(out)
}

/// `urllib.parse.quote` of the text's UTF-8 bytes: letters, digits and `_.-~` kept, `/`
/// too unless `query`, anything else `%XX`; in a query a space is `+`.
fn url_quote(text: &str, query: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'.' | b'-' | b'~' => {
                out.push(char::from(b));
            }
            b'/' if !query => out.push('/'),
            b' ' if query => out.push('+'),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
    out
}

/// Jinja2's `filesizeformat`: the value as a float of bytes, `1 Byte`, `N Bytes` below a
/// kilobyte, else one decimal and the largest prefix it reaches (`kB` … `YB`, or `KiB` …
/// `YiB` with `binary`).
fn filesizeformat(value: &Value, binary: bool) -> Done<String> {
    let bytes = match value {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(Number(Num::Big(digits))) => match digits.parse::<f64>() {
            Ok(f) if f.is_finite() => f,
            _ => return here("int too large to convert to float"),
        },
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => match parse_float(s) {
            Some(f) => f,
            None => {
                let mut repr = String::new();
                crate::value::python::write_str_repr(&mut repr, s);
                return here(format!("could not convert string to float: {repr}"));
            }
        },
        other => {
            return here(format!(
                "float() argument must be a string or a real number, not '{}'",
                super::value::type_name(other)
            ));
        }
    };
    let base: f64 = if binary { 1024.0 } else { 1000.0 };
    if bytes == 1.0 {
        return Ok("1 Byte".to_owned());
    }
    if bytes < base {
        // `int(bytes)`: toward zero.
        let whole = bytes.trunc();
        if whole.is_infinite() {
            return here("cannot convert float infinity to integer");
        }
        // Rust writes a whole float's digits exactly, as Python's `int` has them.
        let whole = if whole == 0.0 { 0.0 } else { whole };
        return Ok(format!("{whole:.0} Bytes"));
    }
    let prefixes: [&str; 8] = if binary {
        ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
    } else {
        ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
    };
    let mut unit = base;
    let mut prefix = prefixes[0];
    for (i, p) in prefixes.iter().enumerate() {
        // `base ** (i + 2)`, as the nearest float (a power of 1000 past 10^22 is not one).
        unit = if binary {
            base.powi(i as i32 + 2)
        } else {
            format!("1{}", "000".repeat(i + 2))
                .parse()
                .unwrap_or(f64::INFINITY)
        };
        prefix = p;
        if bytes < unit {
            break;
        }
    }
    let scaled = base * bytes / unit;
    let mut budget = Budget {
        bytes: 1 << 12,
        steps: 1 << 12,
    };
    let number = super::printf::percent(
        "%.1f",
        super::printf::Operand::Tuple(&[Value::from(scaled)]),
        &mut budget,
    )?;
    Ok(format!("{number} {prefix}"))
}

/// Jinja2's `slice(slices, fill_with)`: the items in `slices` lists, the first ones one
/// longer where they do not share out evenly, and those that are not filled up with
/// `fill_with` when it is given.
fn slice(items: Vec<Value>, args: &[Value], budget: &mut Budget) -> Done<Value> {
    // `len(items) // slices`, then `range(slices)`, as Python runs them.
    let slices = match args.first() {
        Some(Value::Number(Number(Num::Int(n)))) => *n,
        Some(Value::Bool(b)) => i128::from(*b),
        Some(Value::Number(n)) if n.is_f64() => {
            return arg_error(0, "'float' object cannot be interpreted as an integer");
        }
        Some(Value::Number(_)) => return Ok(Value::Array(Vec::new())),
        other => {
            return arg_error(
                0,
                format!(
                    "unsupported operand type(s) for //: 'int' and '{}'",
                    other.map_or("NoneType", super::value::type_name)
                ),
            );
        }
    };
    if slices == 0 {
        return arg_error(0, "integer division or modulo by zero");
    }
    let Ok(slices) = usize::try_from(slices) else {
        return Ok(Value::Array(Vec::new()));
    };
    budget.steps(slices)?;
    // Each column is a list, empty or not.
    budget.bytes(slices.saturating_mul(std::mem::size_of::<Value>()))?;
    let fill = arg(args, 1);
    let (per, extra) = (items.len() / slices, items.len() % slices);
    let mut out = Vec::with_capacity(slices);
    let mut start = 0;
    for number in 0..slices {
        let len = per + usize::from(number < extra);
        let mut column: Vec<Value> = items[start..start + len].to_vec();
        start += len;
        if let Some(fill) = fill
            && number >= extra
        {
            budget.bytes(size(fill))?;
            column.push(fill.clone());
        }
        out.push(Value::Array(column));
    }
    Ok(Value::Array(out))
}

/// Jinja2's `xmlattr(autospace)`: each item of a dict whose value is not `none` as
/// `key="value"`, both escaped, joined by spaces, with a space ahead unless `autospace`
/// is false; a key holding whitespace, `/`, `>` or `=` is refused.
fn xmlattr(value: &Value, args: &[Value], budget: &mut Budget) -> Done<String> {
    let Value::Object(map) = value else {
        return here(format!(
            "'{}' object has no attribute 'items'",
            super::value::type_name(value)
        ));
    };
    budget.bytes(size(value).saturating_mul(6))?;
    let mut out = String::new();
    for (key, item) in map.iter() {
        if item.is_null() {
            continue;
        }
        if key.chars().any(|c| {
            matches!(
                c,
                ' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}' | '/' | '>' | '='
            )
        }) {
            let mut repr = String::new();
            crate::value::python::write_str_repr(&mut repr, key);
            return here(format!("Invalid character in attribute name: {repr}"));
        }
        if !out.is_empty() || args.first().is_none_or(truthy) {
            out.push(' ');
        }
        crate::python::markup::escape_into(&mut out, key);
        out.push_str("=\"");
        crate::python::markup::escape_into(&mut out, &text(item));
        out.push('"');
    }
    Ok(out)
}

/// A filter `map('name', …)` applies: an undefined result is an error there.
fn apply_simple(filter: Filter, value: &Value, args: &[Value], budget: &mut Budget) -> Done<Value> {
    apply(filter, value, args, budget)?
        .ok_or_else(|| Fail::Here("a mapped filter gave nothing for an item".into()))
}

/// The first seven filters, for `map('upper')` and the like (the renderer has its own
/// faster path for them otherwise).
fn apply_first(filter: Filter, value: &Value, args: &[Value], budget: &mut Budget) -> Done<Value> {
    budget.bytes(size(value))?;
    Ok(match filter {
        Filter::Upper => Value::String(text(value).to_uppercase()),
        Filter::Lower => Value::String(text(value).to_lowercase()),
        Filter::Trim => {
            let s = text(value);
            Value::from(match arg(args, 0) {
                Some(Value::String(chars)) => s.trim_matches(|c| chars.contains(c)).to_owned(),
                _ => s.trim_matches(is_space).to_owned(),
            })
        }
        Filter::Length => Value::from(len_of(value)),
        Filter::Default => value.clone(),
        Filter::Join => {
            let sep = args.first().map(text).unwrap_or_default();
            let parts = ops::iterate(value).map_err(Fail::Here)?;
            let mut texts = Vec::with_capacity(parts.len());
            for part in &parts {
                texts.push(match arg(args, 1) {
                    Some(Value::String(path)) => match attribute(part, path) {
                        Some(found) => text(found),
                        None => return here(format!("an item has no `{path}`")),
                    },
                    _ => text(part),
                });
            }
            let total = texts.iter().map(String::len).sum::<usize>()
                + sep.len().saturating_mul(texts.len());
            budget.bytes(total)?;
            Value::String(texts.join(&sep))
        }
        Filter::Tojson => {
            let mut out = String::new();
            match arg(args, 0) {
                None => super::value::write_json(&mut out, value),
                Some(indent) => {
                    let indent =
                        super::value::json_indent(indent, budget.bytes).map_err(Fail::Here)?;
                    super::value::write_json_indented(&mut out, value, &indent, 0, budget.bytes)
                        .ok_or(Fail::Large)?;
                    budget.bytes(out.len())?;
                }
            }
            Value::String(out)
        }
        _ => return here("this filter cannot be mapped"),
    })
}

fn len_of(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        Value::Array(items) | Value::Tuple(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => 0,
    }
}

/// `item.a.b` as Jinja2's `attribute=` reads it: keys of dicts, and integers as
/// indexes into lists.
pub(crate) fn attribute<'v>(item: &'v Value, path: &str) -> Option<&'v Value> {
    let mut at = item;
    for part in path.split('.') {
        at = match at {
            Value::Object(map) => map.get(part)?,
            Value::Array(items) | Value::Tuple(items) => {
                let i: usize = part.parse().ok()?;
                items.get(i)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// What items are compared by: the item or an attribute of it, strings lowered unless
/// case matters.
struct Key<'p> {
    case_sensitive: bool,
    path: Option<&'p str>,
}

impl<'p> Key<'p> {
    fn new(case_sensitive: bool, attribute: Option<&'p Value>, arg: usize) -> Done<Key<'p>> {
        let path = match attribute {
            None => None,
            Some(Value::String(p)) => Some(p.as_str()),
            Some(other) => {
                return arg_error(arg, format!("an attribute's name, not {}", a_type(other)));
            }
        };
        Ok(Key {
            case_sensitive,
            path,
        })
    }

    fn of(&self, item: &Value) -> Done<Value> {
        let found = match self.path {
            None => item,
            Some(path) => match attribute(item, path) {
                Some(found) => found,
                None => return here(format!("an item has no `{path}`")),
            },
        };
        Ok(match found {
            Value::String(s) if !self.case_sensitive => Value::String(s.to_lowercase()),
            other => other.clone(),
        })
    }
}

/// The keys of `sort`: one attribute, or several joined by commas, compared in turn;
/// `at` compares an item's part (a pair's key or value).
struct Keys<'p> {
    keys: Vec<Key<'p>>,
    at: Option<usize>,
}

impl<'p> Keys<'p> {
    fn new(case_sensitive: bool, attribute: Option<&'p Value>, arg: usize) -> Done<Keys<'p>> {
        let keys = match attribute {
            Some(Value::String(paths)) => paths
                .split(',')
                .map(|p| Key {
                    case_sensitive,
                    path: Some(p.trim()),
                })
                .collect(),
            _ => vec![Key::new(case_sensitive, attribute, arg)?],
        };
        Ok(Keys { keys, at: None })
    }

    fn at(self, part: usize) -> Keys<'p> {
        Keys {
            at: Some(part),
            ..self
        }
    }

    fn of(&self, item: &Value) -> Done<Vec<Value>> {
        let item = match (self.at, item) {
            (Some(i), Value::Tuple(parts)) => parts.get(i).unwrap_or(&Value::Null),
            _ => item,
        };
        self.keys.iter().map(|k| k.of(item)).collect()
    }
}

fn compare(a: &Value, b: &Value) -> Done<Ordering> {
    order(a, b).ok_or_else(|| Fail::Here(format!("cannot order {} and {}", a_type(a), a_type(b))))
}

/// Python's `sorted(items, key=…, reverse=…)`: stable, and stable when reversed too
/// (equal items keep their order).
fn sort(items: &mut Vec<Value>, keys: &Keys<'_>, reverse: bool, budget: &mut Budget) -> Done<()> {
    let n = items.len();
    budget.steps(n.saturating_mul(usize::BITS as usize - n.leading_zeros() as usize + 1))?;
    let mut keyed: Vec<(Vec<Value>, Value)> = Vec::with_capacity(n);
    for item in items.drain(..) {
        keyed.push((keys.of(&item)?, item));
    }
    let mut failure = None;
    keyed.sort_by(|(a, _), (b, _)| {
        for (x, y) in a.iter().zip(b) {
            match compare(x, y) {
                Ok(Ordering::Equal) => {}
                Ok(o) => return if reverse { o.reverse() } else { o },
                Err(e) => {
                    failure.get_or_insert(e);
                    return Ordering::Equal;
                }
            }
        }
        Ordering::Equal
    });
    if let Some(e) = failure {
        return Err(e);
    }
    items.extend(keyed.into_iter().map(|(_, item)| item));
    Ok(())
}

/// Jinja2's `groupby(attribute, default=None, case_sensitive=False)`: the items sorted by
/// the attribute (a dotted path, a number for an item of a list), then one `(grouper,
/// list)` pair per run of equal keys, which a loop unpacks or reads as `.grouper` and
/// `.list`. Unless case matters, text keys are compared lowered and the grouper is the
/// first item's own value.
fn groupby(all: Vec<Value>, args: &[Value], budget: &mut Budget) -> Done<Value> {
    let path = match args.first() {
        Some(Value::String(p)) => p.clone(),
        Some(Value::Number(Number(Num::Int(i)))) => i.to_string(),
        Some(other) => return arg_error(0, format!("an attribute's name, not {}", a_type(other))),
        None => return arg_error(0, "`groupby` needs the attribute to group by"),
    };
    let default = arg(args, 1);
    let case_sensitive = bool_arg(args, 2);
    let n = all.len();
    budget.steps(n.saturating_mul(usize::BITS as usize - n.leading_zeros() as usize + 1))?;
    let mut keyed: Vec<(Value, Value, Value)> = Vec::with_capacity(n);
    for item in all {
        let found = match (attribute(&item, &path), default) {
            (Some(found), _) => found.clone(),
            (None, Some(default)) => default.clone(),
            (None, None) => return here(format!("an item has no `{path}`")),
        };
        let key = match &found {
            Value::String(s) if !case_sensitive => Value::String(s.to_lowercase()),
            other => other.clone(),
        };
        keyed.push((key, found, item));
    }
    let mut failure = None;
    keyed.sort_by(|(a, ..), (b, ..)| {
        compare(a, b).unwrap_or_else(|e| {
            failure.get_or_insert(e);
            Ordering::Equal
        })
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let mut groups: Vec<Value> = Vec::new();
    let mut run: Option<(Value, Value, Vec<Value>)> = None;
    for (key, found, item) in keyed {
        match &mut run {
            Some((k, _, items)) if equal(k, &key) => items.push(item),
            _ => {
                if let Some((_, grouper, items)) = run.take() {
                    groups.push(Value::Tuple(vec![grouper, Value::Array(items)]));
                }
                run = Some((key, found, vec![item]));
            }
        }
    }
    if let Some((_, grouper, items)) = run {
        groups.push(Value::Tuple(vec![grouper, Value::Array(items)]));
    }
    Ok(Value::Array(groups))
}

/// Jinja2's `int`: a string read in `base` (then as a float), a number truncated, and
/// the default for what is neither.
fn int(value: &Value, args: &[Value]) -> Done<Value> {
    let default = args.first().cloned().unwrap_or(Value::from(0));
    let base = int_arg(args, 1, 10)?;
    Ok(match value {
        Value::Bool(b) => Value::from(i128::from(*b)),
        Value::Number(Number(Num::Float(f))) => {
            if !f.is_finite() {
                return here("cannot convert an infinite or NaN float to an integer");
            }
            float_to_int(*f)?
        }
        Value::Number(n) => Value::Number(n.clone()),
        Value::String(s) => match parse_int(s, base) {
            Some(n) => n,
            None => match parse_float(s) {
                Some(f) if f.is_finite() => float_to_int(f)?,
                _ => default,
            },
        },
        _ => default,
    })
}

fn float_to_int(f: f64) -> Done<Value> {
    let t = f.trunc();
    if t.abs() < 1.0e38 {
        return Ok(Value::from(t as i128));
    }
    // Beyond `i128`: the float's exact integer, in digits.
    let digits = format!("{t:.0}");
    Number::from_digits(&digits)
        .map(Value::Number)
        .ok_or_else(|| Fail::Here("this float is too large for an integer".into()))
}

/// Python's `int(text, base)`: spaces around, a sign, underscores between digits, and
/// `0x`/`0o`/`0b` when the base is theirs.
fn parse_int(s: &str, base: i128) -> Option<Value> {
    let base = u32::try_from(base).ok().filter(|b| (2..=36).contains(b))?;
    let s = s.trim_matches(is_space);
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let lower = s.to_ascii_lowercase();
    let s = match base {
        16 => lower.strip_prefix("0x").map_or(s, |_| &s[2..]),
        8 => lower.strip_prefix("0o").map_or(s, |_| &s[2..]),
        2 => lower.strip_prefix("0b").map_or(s, |_| &s[2..]),
        _ => s,
    };
    let s = s.strip_prefix('_').unwrap_or(s);
    if s.is_empty() || s.starts_with('_') || s.ends_with('_') || s.contains("__") {
        return None;
    }
    let mut total: i128 = 0;
    let mut digits = String::new();
    for c in s.chars().filter(|&c| c != '_') {
        let d = match crate::python::space::decimal_value(c) {
            Some(d) => d,
            None => c.to_digit(36)?,
        };
        if d >= base {
            return None;
        }
        digits.push(char::from_digit(d, 10).unwrap_or('0'));
        total = match total
            .checked_mul(i128::from(base))
            .and_then(|t| t.checked_add(i128::from(d)))
        {
            Some(t) => t,
            // Longer than 128 bits: only decimal digits are kept exactly.
            None if base == 10 => {
                let sign = if negative { "-" } else { "" };
                let all: String = s.chars().filter(|&c| c != '_').collect();
                return Number::from_digits(&format!("{sign}{all}")).map(Value::Number);
            }
            None => return None,
        };
    }
    Some(Value::from(if negative { -total } else { total }))
}

/// Python's `float(text)`.
fn parse_float(s: &str) -> Option<f64> {
    let s = s.trim_matches(is_space);
    if s.contains("__") || s.starts_with('_') || s.ends_with('_') {
        return None;
    }
    let cleaned: String = s.chars().filter(|&c| c != '_').collect();
    let lower = cleaned.to_ascii_lowercase();
    let unsigned = lower.trim_start_matches(['+', '-']);
    if matches!(unsigned, "inf" | "infinity" | "nan") {
        return cleaned.parse().ok().or(Some(if lower.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }));
    }
    if !cleaned
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
    {
        return None;
    }
    cleaned.parse().ok()
}

/// Jinja2's `float`: a number as a float, a string read as one, else the default.
fn float(value: &Value, args: &[Value]) -> Value {
    let default = args.first().cloned().unwrap_or(Value::from(0.0));
    match value {
        Value::Bool(b) => Value::from(f64::from(u8::from(*b))),
        Value::Number(n) => Value::from(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => parse_float(s).map_or(default, Value::from),
        _ => default,
    }
}

/// Jinja2's `round(precision, method)`: `common` is Python's `round` (halves to even,
/// on the float's exact value), `ceil` and `floor` at the precision.
fn round(value: &Value, args: &[Value]) -> Done<Value> {
    let precision = int_arg(args, 0, 0)?;
    let method = match args.get(1) {
        None => "common",
        Some(Value::String(m)) if matches!(m.as_str(), "common" | "ceil" | "floor") => m.as_str(),
        _ => return arg_error(1, "method must be common, ceil or floor"),
    };
    let x = match value {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => {
            if method == "common" && !n.is_f64() && precision >= 0 {
                // `round(int, n)` is the int itself.
                return Ok(match value {
                    Value::Bool(b) => Value::from(i128::from(*b)),
                    other => other.clone(),
                });
            }
            n.as_f64().unwrap_or(f64::NAN)
        }
        other => {
            return here(format!("`round` needs a number, not {}", a_type(other)));
        }
    };
    let p = i32::try_from(precision.clamp(-400, 400)).unwrap_or(0);
    let scale = 10f64.powi(p);
    Ok(Value::from(match method {
        "ceil" => (x * scale).ceil() / scale,
        "floor" => (x * scale).floor() / scale,
        _ if !x.is_finite() => x,
        _ if p >= 0 => {
            // The float's exact value written at the precision, halves to even: what
            // Python's `round` computes.
            let shown = format!("{x:.prec$}", prec = usize::try_from(p).unwrap_or(0));
            shown.parse().unwrap_or(x)
        }
        _ => (x * scale).round_ties_even() / scale,
    }))
}

/// Jinja2's `indent(width, first, blank)`.
fn indent(s: &str, args: &[Value], budget: &mut Budget) -> Done<String> {
    let indention = match args.first() {
        Some(Value::String(w)) => w.clone(),
        _ => {
            // A negative width indents by nothing, as `" " * -1` is `""`.
            let width = usize::try_from(int_arg(args, 0, 4)?.max(0)).unwrap_or(usize::MAX);
            budget.bytes(width)?;
            " ".repeat(width)
        }
    };
    let (first, blank) = (bool_arg(args, 1), bool_arg(args, 2));
    let text = format!("{s}\n");
    let lines = crate::python::space::split_lines(&text, false);
    budget.bytes(
        s.len()
            .saturating_add(indention.len().saturating_mul(lines.len() + 1))
            .saturating_add(lines.len()),
    )?;
    let mut out = String::new();
    if blank {
        out = lines.join(&format!("\n{indention}"));
    } else if let Some((head, rest)) = lines.split_first() {
        out.push_str(head);
        for line in rest {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&indention);
            }
            out.push_str(line);
        }
    }
    if first {
        out.insert_str(0, &indention);
    }
    Ok(out)
}

/// Jinja2's `truncate(length, killwords, end, leeway)`, leeway 5 by default.
fn truncate(s: &str, args: &[Value]) -> Done<String> {
    let length = int_arg(args, 0, 255)?;
    let killwords = bool_arg(args, 1);
    let end = match args.get(2) {
        None => "...".to_owned(),
        Some(e) => text(e),
    };
    let leeway = match arg(args, 3) {
        None => 5,
        Some(_) => int_arg(args, 3, 5)?,
    };
    let end_len = end.chars().count() as i128;
    if length < end_len {
        return arg_error(0, format!("expected length >= {end_len}, got {length}"));
    }
    if leeway < 0 {
        return arg_error(3, format!("expected leeway >= 0, got {leeway}"));
    }
    let chars: Vec<char> = s.chars().collect();
    if chars.len() as i128 <= length.saturating_add(leeway) {
        return Ok(s.to_owned());
    }
    let keep = usize::try_from(length - end_len)
        .unwrap_or(0)
        .min(chars.len());
    let head: String = chars[..keep].iter().collect();
    if killwords {
        return Ok(head + &end);
    }
    let cut = match head.rfind(' ') {
        Some(at) => &head[..at],
        None => &head[..],
    };
    Ok(format!("{cut}{end}"))
}

/// Whitespace as Python's `textwrap` splits at.
fn wrap_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ')
}

/// The chunks `textwrap` wraps: runs of whitespace, and words (split after a hyphen
/// between letters when `hyphens`).
fn chunks(line: &str, hyphens: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    // `textwrap`'s letter, `[^\d\W]`: a word character that is not a digit.
    let letter = |i: usize| {
        chars
            .get(i)
            .is_some_and(|&(_, c)| (c.is_alphabetic() && !c.is_numeric()) || c == '_')
    };
    let word = |i: usize| {
        chars
            .get(i)
            .is_some_and(|&(_, c)| c.is_alphanumeric() || c == '_')
    };
    // An em-dash: two dashes or more after a word's punctuation and before a word
    // character; the dashes' end if one starts at `i`.
    let em_dash = |i: usize| -> Option<usize> {
        let before = i
            .checked_sub(1)
            .and_then(|p| chars.get(p))
            .is_some_and(|&(_, c)| c.is_alphanumeric() || "_!\"'&.,?".contains(c));
        let mut end = i;
        while chars.get(end).is_some_and(|c| c.1 == '-') {
            end += 1;
        }
        (before && end >= i + 2 && word(end)).then_some(end)
    };
    let mut i = 0;
    while i < chars.len() {
        let space = wrap_space(chars[i].1);
        let mut j = i + 1;
        if hyphens
            && !space
            && let Some(end) = em_dash(i)
        {
            j = end;
            let stop = chars.get(j).map_or(line.len(), |&(at, _)| at);
            out.push(&line[chars[i].0..stop]);
            i = j;
            continue;
        }
        while j < chars.len() && wrap_space(chars[j].1) == space {
            if !space && hyphens && em_dash(j).is_some() {
                break;
            }
            if !space && hyphens && chars[j - 1].1 == '-' && j >= i + 2 {
                // A hyphen ends a piece when two letters (or letter-hyphen-letter)
                // lead to it and a letter (maybe after one more hyphen) follows.
                let h = j - 1;
                let before = (h >= 2 && letter(h - 1) && letter(h - 2))
                    || (h >= 3 && letter(h - 1) && chars[h - 2].1 == '-' && letter(h - 3));
                let after = letter(j)
                    && (letter(j + 1)
                        || (chars.get(j + 1).is_some_and(|c| c.1 == '-') && letter(j + 2)));
                if before && after {
                    break;
                }
            }
            j += 1;
        }
        let end = chars.get(j).map_or(line.len(), |&(at, _)| at);
        out.push(&line[chars[i].0..end]);
        i = j;
    }
    out
}

/// Python's `textwrap.wrap(line, width, expand_tabs=False, replace_whitespace=False,
/// break_long_words, break_on_hyphens)`.
fn wrap(line: &str, width: usize, long_words: bool, hyphens: bool) -> Vec<String> {
    let mut chunks: Vec<String> = chunks(line, hyphens)
        .into_iter()
        .map(str::to_owned)
        .rev()
        .collect();
    let blank = |s: &str| s.chars().all(wrap_space);
    let len = |s: &str| s.chars().count();
    let mut lines = Vec::new();
    while !chunks.is_empty() {
        let mut current: Vec<String> = Vec::new();
        let mut current_len = 0;
        if chunks.last().is_some_and(|c| blank(c)) && !lines.is_empty() {
            chunks.pop();
        }
        while let Some(chunk) = chunks.last() {
            let l = len(chunk);
            if current_len + l <= width {
                current_len += l;
                current.extend(chunks.pop());
            } else {
                break;
            }
        }
        if chunks.last().is_some_and(|c| len(c) > width) {
            let space_left = if width < 1 { 1 } else { width - current_len };
            if long_words {
                if let Some(chunk) = chunks.last_mut() {
                    let mut end = space_left;
                    let cs: Vec<char> = chunk.chars().collect();
                    if hyphens
                        && cs.len() > space_left
                        && let Some(h) = cs[..space_left].iter().rposition(|&c| c == '-')
                        && h > 0
                        && cs[..h].iter().any(|&c| c != '-')
                    {
                        end = h + 1;
                    }
                    current.push(cs[..end].iter().collect());
                    *chunk = cs[end..].iter().collect();
                }
            } else if current.is_empty() {
                current.extend(chunks.pop());
            }
        }
        if current.last().is_some_and(|c| blank(c)) {
            current.pop();
        }
        if !current.is_empty() {
            lines.push(current.concat());
        }
    }
    lines
}

/// Jinja2's `wordwrap(width, break_long_words, wrapstring, break_on_hyphens)`.
fn wordwrap(s: &str, args: &[Value], budget: &mut Budget) -> Done<String> {
    let width = int_arg(args, 0, 79)?;
    let Ok(width) = usize::try_from(width) else {
        return arg_error(0, format!("invalid width {width} (must be > 0)"));
    };
    if width == 0 {
        return arg_error(0, "invalid width 0 (must be > 0)");
    }
    let long_words = args.get(1).is_none_or(truthy);
    let wrapstring = match arg(args, 2) {
        None => "\n".to_owned(),
        Some(w) => text(w),
    };
    let hyphens = args.get(3).is_none_or(truthy);
    let lines = crate::python::space::split_lines(s, false);
    // Each break adds the wrap string where a space or nothing was.
    let breaks = s.len() / width + lines.len() + 1;
    budget.bytes(
        s.len()
            .saturating_add(wrapstring.len().saturating_mul(breaks)),
    )?;
    budget.steps(s.len())?;
    let wrapped: Vec<String> = lines
        .iter()
        .map(|line| wrap(line, width, long_words, hyphens).join(&wrapstring))
        .collect();
    Ok(wrapped.join(&wrapstring))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(filter: Filter, value: &str, args: &[&str]) -> String {
        let value = Value::from_json(value).unwrap();
        let args: Vec<Value> = args.iter().map(|a| Value::from_json(a).unwrap()).collect();
        let mut budget = Budget {
            bytes: 1 << 20,
            steps: 1 << 20,
        };
        match apply(filter, &value, &args, &mut budget) {
            Ok(Some(v)) => {
                let mut out = String::new();
                super::super::value::write_repr(&mut out, &v);
                out
            }
            Ok(None) => "undefined".into(),
            Err(e) => format!("error {e:?}"),
        }
    }

    #[test]
    fn conversions_are_jinja2s() {
        let cases = [
            (Filter::Int, "\"42\"", &[][..], "42"),
            (Filter::Int, "\" 3.7 \"", &[], "3"),
            (Filter::Int, "\"x\"", &["7"], "7"),
            (Filter::Int, "\"ff\"", &["0", "16"], "255"),
            (Filter::Int, "\"0x1F\"", &["0", "16"], "31"),
            (Filter::Int, "\"1_000\"", &[], "1000"),
            (Filter::Int, "-2.9", &[], "-2"),
            (
                Filter::Int,
                "\"100000000000000000000000000000000000000000\"",
                &[],
                "100000000000000000000000000000000000000000",
            ),
            (Filter::Float, "\"2.5\"", &[], "2.5"),
            (Filter::Float, "\"nope\"", &[], "0.0"),
            (Filter::Float, "3", &[], "3.0"),
            (Filter::Round, "2.5", &[], "2.0"),
            (Filter::Round, "2.675", &["2"], "2.67"),
            (Filter::Round, "3", &[], "3"),
            (Filter::Round, "2.1", &["0", "\"ceil\""], "3.0"),
            (Filter::Abs, "-3", &[], "3"),
        ];
        for (filter, value, args, want) in cases {
            assert_eq!(
                run(filter, value, args),
                want,
                "{filter:?} {value} {args:?}"
            );
        }
    }

    #[test]
    fn text_filters_are_jinja2s() {
        let cases = [
            (
                Filter::Indent,
                "\"a\\nb\\n\\nc\"",
                &[][..],
                "'a\\n    b\\n\\n    c'",
            ),
            (Filter::Indent, "\"a\\nb\"", &["2", "true"], "'  a\\n  b'"),
            (
                Filter::Indent,
                "\"a\\n\\nb\"",
                &["\"> \"", "false", "true"],
                "'a\\n> \\n> b'",
            ),
            (
                Filter::Truncate,
                "\"hello world foo bar\"",
                &["11"],
                "'hello...'",
            ),
            (
                Filter::Truncate,
                "\"hello world foo bar\"",
                &["11", "true"],
                "'hello wo...'",
            ),
            (Filter::Truncate, "\"short\"", &["3"], "'short'"),
            (Filter::Wordcount, "\"one, two_3 four\"", &[], "3"),
            (
                Filter::Wordwrap,
                "\"aaa bbb ccc ddd\"",
                &["7"],
                "'aaa bbb\\nccc ddd'",
            ),
            (
                Filter::Wordwrap,
                "\"abcdefghij\"",
                &["4"],
                "'abcd\\nefgh\\nij'",
            ),
            (
                Filter::Wordwrap,
                "\"well-known fact\"",
                &["6"],
                "'well-\\nknown\\nfact'",
            ),
            (Filter::Center, "\"ab\"", &["7"], "'   ab  '"),
            (
                Filter::Title,
                "\"hello-wORLD (x)\"",
                &[],
                "'Hello-World (X)'",
            ),
        ];
        for (filter, value, args, want) in cases {
            assert_eq!(
                run(filter, value, args),
                want,
                "{filter:?} {value} {args:?}"
            );
        }
    }

    #[test]
    fn html_and_url_filters_refuse_as_python_does() {
        let cases = [
            (
                Filter::Urlencode,
                "[[1, 2, 3]]",
                &[][..],
                "too many values to unpack (expected 2)",
            ),
            (
                Filter::Urlencode,
                "[[1]]",
                &[],
                "not enough values to unpack (expected 2, got 1)",
            ),
            (
                Filter::Xmlattr,
                "{\"a b\": 1}",
                &["true"],
                "Invalid character in attribute name: 'a b'",
            ),
            (
                Filter::Xmlattr,
                "[1]",
                &["true"],
                "'list' object has no attribute 'items'",
            ),
            (
                Filter::Filesizeformat,
                "null",
                &["false"],
                "float() argument must be a string or a real number, not 'NoneType'",
            ),
            (
                Filter::Filesizeformat,
                "\"1e3x\"",
                &["false"],
                "could not convert string to float: '1e3x'",
            ),
            (
                Filter::Slice,
                "[1, 2]",
                &["0"],
                "integer division or modulo by zero",
            ),
            (
                Filter::Slice,
                "[1, 2]",
                &["2.0"],
                "'float' object cannot be interpreted as an integer",
            ),
            (
                Filter::Slice,
                "[1, 2]",
                &["\"2\""],
                "unsupported operand type(s) for //: 'int' and 'str'",
            ),
        ];
        for (filter, value, args, want) in cases {
            let got = run(filter, value, args);
            assert!(got.contains(want), "{filter:?} {value} {args:?}: {got}");
        }
        assert_eq!(run(Filter::Slice, "[1, 2, 3]", &["-2"]), "[]");
        // Half a million empty columns are counted before they are made.
        assert_eq!(run(Filter::Slice, "[1]", &["500000"]), "error Large");
        assert_eq!(
            run(Filter::Urlencode, "{\"a&b\": \"c/d e\"}", &[]),
            "'a%26b=c%2Fd+e'"
        );
        assert_eq!(run(Filter::Filesizeformat, "1e400", &["false"]), "'inf YB'");
    }

    #[test]
    fn list_filters_are_jinja2s() {
        let people = r#"[{"n": "b", "a": 2}, {"n": "A", "a": 1}, {"n": "c", "a": 2}]"#;
        let cases = [
            (Filter::Sort, "[3, 1, 2]", &[][..], "[1, 2, 3]"),
            (
                Filter::Sort,
                "[\"b\", \"A\", \"c\"]",
                &["true"],
                "['c', 'b', 'A']",
            ),
            (
                Filter::Sort,
                people,
                &["false", "false", "\"a\""],
                "[{'n': 'A', 'a': 1}, {'n': 'b', 'a': 2}, {'n': 'c', 'a': 2}]",
            ),
            (
                Filter::Sort,
                people,
                &["true", "false", "\"a,n\""],
                "[{'n': 'c', 'a': 2}, {'n': 'b', 'a': 2}, {'n': 'A', 'a': 1}]",
            ),
            (
                Filter::Unique,
                "[\"a\", \"A\", \"b\", \"a\"]",
                &[],
                "['a', 'b']",
            ),
            (Filter::Min, "[\"b\", \"A\", \"c\"]", &[], "'A'"),
            (
                Filter::Max,
                people,
                &["false", "\"a\""],
                "{'n': 'b', 'a': 2}",
            ),
            (Filter::Sum, "[1, 2.5, true]", &[], "4.5"),
            (Filter::Sum, people, &["\"a\"", "10"], "15"),
            (Filter::First, "[]", &[], "undefined"),
            (Filter::Last, "\"abc\"", &[], "'c'"),
            (Filter::Batch, "[1, 2, 3]", &["2", "0"], "[[1, 2], [3, 0]]"),
            (
                Filter::Dictsort,
                "{\"b\": 1, \"A\": 2}",
                &[],
                "[('A', 2), ('b', 1)]",
            ),
            (
                Filter::Dictsort,
                "{\"b\": 1, \"A\": 2}",
                &["false", "\"value\"", "true"],
                "[('A', 2), ('b', 1)]",
            ),
            (Filter::Items, "{\"b\": 1}", &[], "[('b', 1)]"),
            (Filter::Select, "[0, 1, 2, 3]", &["\"odd\""], "[1, 3]"),
            (Filter::Reject, "[0, 1, \"\"]", &[], "[0, '']"),
            (
                Filter::Selectattr,
                people,
                &["\"a\"", "\"eq\"", "2"],
                "[{'n': 'b', 'a': 2}, {'n': 'c', 'a': 2}]",
            ),
            (
                Filter::Rejectattr,
                people,
                &["\"missing\""],
                "[{'n': 'b', 'a': 2}, {'n': 'A', 'a': 1}, {'n': 'c', 'a': 2}]",
            ),
            (Filter::MapAttr, people, &["\"n\""], "['b', 'A', 'c']"),
            (Filter::Map, "[\"a\", 1]", &["\"upper\""], "['A', '1']"),
            (Filter::Reverse, "[1, 2]", &[], "[2, 1]"),
            (Filter::List, "\"ab\"", &[], "['a', 'b']"),
            (
                Filter::Sort,
                "[1, \"a\"]",
                &[],
                "error Here(\"cannot order a str and an int\")",
            ),
        ];
        for (filter, value, args, want) in cases {
            assert_eq!(
                run(filter, value, args),
                want,
                "{filter:?} {value} {args:?}"
            );
        }
    }
}
