//! Arithmetic, slices, string and dict methods, and the tests, on values that are there,
//! each as Python and Jinja2 compute it. Pure functions over [`Value`]s: the renderer
//! evaluates the operands, calls these, and puts a failure at the expression's place.
//!
//! Integers are exact within 128 bits; a result beyond that is refused (Python would go
//! on, to any length: `2 ** 10 ** 9` would take a gigabyte), and so is arithmetic on an
//! integer longer than that, which data can hold and a template can print and compare.

use super::data::{Num, Number, Value};
use super::expr::{BinOp, Method, Test};
use super::value::{a_type, contains, equal, order, truthy, write_str};
use crate::python::space::is_space;
use std::cmp::Ordering;

/// Why an operation failed.
#[derive(Debug)]
pub(crate) enum Fail {
    /// A message about the whole expression.
    Here(String),
    /// A message about its argument of this index (0 is the first after the value).
    Arg(usize, String),
    /// Its result would pass the render's size limit.
    Large,
    /// It would take more than the render's steps.
    Long,
}

pub(crate) type Done<T> = Result<T, Fail>;

fn here<T>(message: impl Into<String>) -> Done<T> {
    Err(Fail::Here(message.into()))
}

/// What an operation may still use: bytes of what it builds, and steps (items looked
/// at), both taken from the render's limits before anything is allocated.
pub(crate) struct Budget {
    pub bytes: usize,
    pub steps: usize,
}

impl Budget {
    /// Takes `n` bytes, or fails when they are not left.
    pub(crate) fn bytes(&mut self, n: usize) -> Done<()> {
        self.bytes = self.bytes.checked_sub(n).ok_or(Fail::Large)?;
        Ok(())
    }

    /// Takes `n` steps, or fails when they are not left.
    pub(crate) fn steps(&mut self, n: usize) -> Done<()> {
        self.steps = self.steps.checked_sub(n).ok_or(Fail::Long)?;
        Ok(())
    }
}

/// About how many bytes a value takes, for the budget (a string its text, a list each
/// item); deep values are counted as far as they go.
pub(crate) fn size(value: &Value) -> usize {
    super::value::footprint(value, super::value::MAX_DEPTH).unwrap_or(usize::MAX / 2)
}

/// `str(value)`.
pub(crate) fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => {
            let mut out = String::new();
            write_str(&mut out, other);
            out
        }
    }
}

/// A number as arithmetic reads it: `True` is 1.
#[derive(Clone, Copy)]
enum Arith {
    Int(i128),
    Float(f64),
}

fn arith(value: &Value) -> Option<Done<Arith>> {
    Some(Ok(match value {
        Value::Bool(b) => Arith::Int(i128::from(*b)),
        Value::Number(Number(Num::Int(i))) => Arith::Int(*i),
        Value::Number(Number(Num::Float(f))) => Arith::Float(*f),
        Value::Number(Number(Num::Big(_))) => return Some(too_long()),
        _ => return None,
    }))
}

fn too_long<T>() -> Done<T> {
    here(
        "integers beyond 128 bits are printed and compared, not computed with: promptic's Jinja refuses them in arithmetic",
    )
}

fn overflow<T>(op: &str) -> Done<T> {
    here(format!(
        "`{op}` gives an integer beyond 128 bits, which promptic's Jinja does not compute"
    ))
}

fn int(i: i128) -> Value {
    Value::from(i)
}

fn float(f: f64) -> Value {
    Value::from(f)
}

impl Arith {
    fn f(self) -> f64 {
        match self {
            Arith::Int(i) => i as f64,
            Arith::Float(f) => f,
        }
    }
}

/// `left op right`.
pub(crate) fn binary(op: BinOp, left: &Value, right: &Value, budget: &mut Budget) -> Done<Value> {
    binary_inline(op, left, right, budget)
}

/// [`binary`], inlined where it is called: a compiled render's call for one operation
/// (`compiled::op`, a copy per operation) keeps that operation's code alone.
#[inline(always)]
pub(crate) fn binary_inline(
    op: BinOp,
    left: &Value,
    right: &Value,
    budget: &mut Budget,
) -> Done<Value> {
    if op == BinOp::Concat {
        let (l, r) = (text(left), text(right));
        budget.bytes(l.len() + r.len())?;
        return Ok(Value::String(l + &r));
    }
    match (arith(left), arith(right)) {
        (Some(l), Some(r)) => numbers(op, l?, r?),
        _ => sequences(op, left, right, budget),
    }
}

fn numbers(op: BinOp, l: Arith, r: Arith) -> Done<Value> {
    use Arith::Int;
    let symbol = op.symbol();
    Ok(match (op, l, r) {
        (BinOp::Add, Int(a), Int(b)) => {
            int(a.checked_add(b).map_or_else(|| overflow(symbol), Ok)?)
        }
        (BinOp::Sub, Int(a), Int(b)) => {
            int(a.checked_sub(b).map_or_else(|| overflow(symbol), Ok)?)
        }
        (BinOp::Mul, Int(a), Int(b)) => {
            int(a.checked_mul(b).map_or_else(|| overflow(symbol), Ok)?)
        }
        (BinOp::Add, a, b) => float(a.f() + b.f()),
        (BinOp::Sub, a, b) => float(a.f() - b.f()),
        (BinOp::Mul, a, b) => float(a.f() * b.f()),
        (BinOp::Div, a, b) => {
            if b.f() == 0.0 {
                return here("division by zero");
            }
            float(a.f() / b.f())
        }
        (BinOp::FloorDiv | BinOp::Mod, Int(_), Int(0)) => {
            return here("integer division or modulo by zero");
        }
        (BinOp::FloorDiv, Int(a), Int(b)) => match a.checked_div_euclid(b) {
            // Python floors; Euclid's division differs only for a negative divisor.
            Some(q) => int(if b < 0 && a.rem_euclid(b) != 0 {
                q - 1
            } else {
                q
            }),
            None => return overflow(symbol),
        },
        (BinOp::Mod, Int(a), Int(b)) => {
            let m = a
                .checked_rem_euclid(b)
                .map_or_else(|| overflow(symbol), Ok)?;
            int(if b < 0 && m != 0 { m + b } else { m })
        }
        (BinOp::FloorDiv | BinOp::Mod, a, b) => {
            let (a, b) = (a.f(), b.f());
            if b == 0.0 {
                return here("float division or modulo by zero");
            }
            let (div, m) = float_divmod(a, b);
            float(if op == BinOp::FloorDiv { div } else { m })
        }
        (BinOp::Pow, Int(a), Int(b)) => {
            if b >= 0 {
                let Ok(e) = u32::try_from(b) else {
                    return match a {
                        0 | 1 => Ok(int(a)),
                        -1 => Ok(int(if b % 2 == 0 { 1 } else { -1 })),
                        _ => overflow(symbol),
                    };
                };
                int(a.checked_pow(e).map_or_else(|| overflow(symbol), Ok)?)
            } else if a == 0 {
                return here("0 cannot be raised to a negative power");
            } else {
                float((a as f64).powf(b as f64))
            }
        }
        (BinOp::Pow, a, b) => {
            let (x, y) = (a.f(), b.f());
            if x == 0.0 && y < 0.0 {
                return here("0.0 cannot be raised to a negative power");
            }
            if x < 0.0 && y.fract() != 0.0 && y.is_finite() {
                return here("a negative number to a fractional power is a complex number");
            }
            let result = x.powf(y);
            if result.is_infinite() && x.is_finite() && y.is_finite() {
                return here("`**` gives a float too large to hold");
            }
            float(result)
        }
        (BinOp::Concat, ..) => return here("`~` is not arithmetic"),
    })
}

/// Python's `divmod` of two floats: the quotient floored, the remainder with the sign
/// of the divisor.
fn float_divmod(a: f64, b: f64) -> (f64, f64) {
    let mut m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
            div -= 1.0;
        }
    } else {
        m = 0.0_f64.copysign(b);
    }
    let floordiv = if div != 0.0 {
        let mut f = div.floor();
        if div - f > 0.5 {
            f += 1.0;
        }
        f
    } else {
        0.0_f64.copysign(a / b)
    };
    (floordiv, m)
}

/// `+` and `*` on strings, lists and tuples.
fn sequences(op: BinOp, left: &Value, right: &Value, budget: &mut Budget) -> Done<Value> {
    let refuse = || {
        here(format!(
            "`{}` cannot take {} and {}",
            op.symbol(),
            a_type(left),
            a_type(right)
        ))
    };
    match op {
        // Python's `%` formatting of text.
        BinOp::Mod => match left {
            Value::String(format) => {
                super::printf::percent(format, super::printf::Operand::of(right), budget)
                    .map(Value::String)
            }
            _ => refuse(),
        },
        BinOp::Add => match (left, right) {
            (Value::String(a), Value::String(b)) => {
                budget.bytes(a.len() + b.len())?;
                Ok(Value::String(format!("{a}{b}")))
            }
            (Value::Array(a), Value::Array(b)) => {
                budget.bytes(size(left) + size(right))?;
                Ok(Value::Array(a.iter().chain(b).cloned().collect()))
            }
            (Value::Tuple(a), Value::Tuple(b)) => {
                budget.bytes(size(left) + size(right))?;
                Ok(Value::Tuple(a.iter().chain(b).cloned().collect()))
            }
            _ => refuse(),
        },
        BinOp::Mul => {
            let (seq, times) = match (left, right) {
                (s, n) if arith(n).is_some() && arith(s).is_none() => (s, n),
                (n, s) if arith(n).is_some() && arith(s).is_none() => (s, n),
                _ => return refuse(),
            };
            let times = match arith(times) {
                Some(Ok(Arith::Int(n))) => usize::try_from(n.max(0)).unwrap_or(usize::MAX),
                Some(Err(e)) => return Err(e),
                _ => {
                    return here(format!(
                        "a sequence can be repeated only an integer number of times, not {}",
                        a_type(times)
                    ));
                }
            };
            let each = match seq {
                Value::String(s) => s.len(),
                _ => size(seq),
            };
            budget.bytes(each.saturating_mul(times))?;
            match seq {
                Value::String(s) => Ok(Value::String(s.repeat(times))),
                Value::Array(items) => Ok(Value::Array(repeat(items, times))),
                Value::Tuple(items) => Ok(Value::Tuple(repeat(items, times))),
                _ => refuse(),
            }
        }
        _ => refuse(),
    }
}

fn repeat(items: &[Value], times: usize) -> Vec<Value> {
    let mut out = Vec::with_capacity(items.len().saturating_mul(times));
    for _ in 0..times {
        out.extend_from_slice(items);
    }
    out
}

/// `-value` (`negative`) or `+value`.
pub(crate) fn sign(value: &Value, negative: bool) -> Done<Value> {
    match arith(value) {
        Some(n) => Ok(match (n?, negative) {
            (Arith::Int(i), true) => int(i.checked_neg().map_or_else(|| overflow("-"), Ok)?),
            (Arith::Int(i), false) => int(i),
            (Arith::Float(f), true) => float(-f),
            (Arith::Float(f), false) => float(f),
        }),
        None => here(format!(
            "`{}` cannot take {}",
            if negative { "-" } else { "+" },
            a_type(value)
        )),
    }
}

/// An index as Python takes one: an integer (or a boolean), or `None` for none.
fn index(value: &Value, arg: usize) -> Done<Option<i128>> {
    match value {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(i128::from(*b))),
        Value::Number(Number(Num::Int(i))) => Ok(Some(*i)),
        other => Err(Fail::Arg(
            arg,
            format!(
                "slice indices must be integers or none, not {}",
                a_type(other)
            ),
        )),
    }
}

/// `value[start:stop:step]`.
pub(crate) fn slice(
    value: &Value,
    start: &Value,
    stop: &Value,
    step: &Value,
    budget: &mut Budget,
) -> Done<Value> {
    let (start, stop, step) = (index(start, 0)?, index(stop, 1)?, index(step, 2)?);
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(Fail::Arg(2, "slice step cannot be zero".into()));
    }
    let pick = |len: usize| -> Vec<usize> { slice_indices(len, start, stop, step) };
    match value {
        Value::String(s) => {
            budget.bytes(s.len())?;
            let chars: Vec<char> = s.chars().collect();
            Ok(Value::String(
                pick(chars.len()).into_iter().map(|i| chars[i]).collect(),
            ))
        }
        Value::Array(items) | Value::Tuple(items) => {
            budget.bytes(size(value))?;
            let picked: Vec<Value> = pick(items.len())
                .into_iter()
                .map(|i| items[i].clone())
                .collect();
            Ok(if matches!(value, Value::Tuple(_)) {
                Value::Tuple(picked)
            } else {
                Value::Array(picked)
            })
        }
        other => here(format!("{} cannot be sliced", a_type(other))),
    }
}

/// The positions `[start:stop:step]` picks from `len` items, as Python's slices do.
fn slice_indices(len: usize, start: Option<i128>, stop: Option<i128>, step: i128) -> Vec<usize> {
    let len = len as i128;
    let clamp = |i: i128, low: i128, high: i128| {
        let i = if i < 0 { i + len } else { i };
        i.clamp(low, high)
    };
    let mut out = Vec::new();
    if step > 0 {
        let from = start.map_or(0, |i| clamp(i, 0, len));
        let to = stop.map_or(len, |i| clamp(i, 0, len));
        let mut i = from;
        while i < to {
            out.push(i as usize);
            i += step;
        }
    } else {
        let from = start.map_or(len - 1, |i| clamp(i, -1, len - 1));
        let to = stop.map_or(-1, |i| clamp(i, -1, len - 1));
        let mut i = from;
        while i > to {
            out.push(i as usize);
            i += step;
        }
    }
    out
}

/// Python's `str.title()`: a letter after a cased one lowers, any other uppers.
pub(crate) fn str_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut after_cased = false;
    for c in s.chars() {
        if after_cased {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        after_cased = c.is_lowercase() || c.is_uppercase();
    }
    out
}

/// Jinja2's `title` filter: each piece between runs of spaces, `-`, `(`, `{`, `[` and
/// `<` has its first character upper and the rest lower.
pub(crate) fn title_filter(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut start_of_word = true;
    for c in s.chars() {
        let separator = is_space(c) || matches!(c, '-' | '(' | '{' | '[' | '<');
        if separator {
            out.push(c);
            start_of_word = true;
        } else if start_of_word {
            out.extend(c.to_uppercase());
            start_of_word = false;
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Python's `str.capitalize()`.
pub(crate) fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        None => String::new(),
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
    }
}

/// Python's `str.replace(old, new, count)` (a negative count: all).
pub(crate) fn replace(
    s: &str,
    old: &str,
    new: &str,
    count: i128,
    budget: &mut Budget,
) -> Done<String> {
    let limit = usize::try_from(count).unwrap_or(usize::MAX);
    let matches = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old).count()
    }
    .min(limit);
    let grows = new.len().saturating_sub(old.len()).saturating_mul(matches);
    budget.bytes(s.len().saturating_add(grows))?;
    if old.is_empty() {
        let mut out = String::new();
        let mut done = 0;
        for c in s.chars() {
            if done < matches {
                out.push_str(new);
                done += 1;
            }
            out.push(c);
        }
        if done < matches {
            out.push_str(new);
        }
        return Ok(out);
    }
    Ok(s.replacen(old, new, matches))
}

/// Characters for `strip` and its kin: Python's whitespace, or the ones given.
fn strip_set(chars: Option<&Value>) -> Done<Option<Vec<char>>> {
    match chars {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(c)) => Ok(Some(c.chars().collect())),
        Some(other) => Err(Fail::Arg(
            0,
            format!("strip takes a string of characters, not {}", a_type(other)),
        )),
    }
}

/// The pieces of `s.split(sep)` (a separator that is not empty), or of `s.split()`:
/// split at runs of Python's whitespace, no empty pieces.
pub(crate) fn split<'s>(
    s: &'s str,
    sep: Option<&'s str>,
) -> Box<dyn Iterator<Item = &'s str> + 's> {
    match sep {
        Some(sep) => Box::new(s.split(sep)),
        None => Box::new(s.split(super::lexer::py_space).filter(|p| !p.is_empty())),
    }
}

/// `receiver.method(args)`.
pub(crate) fn method(
    method: Method,
    receiver: &Value,
    args: &[Value],
    budget: &mut Budget,
) -> Done<Value> {
    method_inline(method, receiver, args, budget)
}

/// [`method`], inlined where it is called (as [`binary_inline`]).
#[inline(always)]
pub(crate) fn method_inline(
    method: Method,
    receiver: &Value,
    args: &[Value],
    budget: &mut Budget,
) -> Done<Value> {
    let no_such = || {
        here(format!(
            "{} has no method `.{}()`",
            a_type(receiver),
            method.name()
        ))
    };
    if let Value::Object(map) = receiver {
        return match method {
            Method::Keys => {
                budget.steps(map.len())?;
                Ok(Value::Array(map.keys().map(Value::from).collect()))
            }
            Method::Values => {
                budget.bytes(size(receiver))?;
                Ok(Value::Array(map.values().cloned().collect()))
            }
            Method::Get => {
                let found = match &args[0] {
                    Value::String(k) => map.get(k),
                    _ => None,
                };
                Ok(found.or(args.get(1)).cloned().unwrap_or(Value::Null))
            }
            _ => no_such(),
        };
    }
    let Value::String(s) = receiver else {
        return no_such();
    };
    let arg_str = |i: usize| -> Done<&str> {
        match args.get(i) {
            Some(Value::String(a)) => Ok(a),
            Some(other) => Err(Fail::Arg(
                i,
                format!(
                    "`.{}()` needs a string, not {}",
                    method.name(),
                    a_type(other)
                ),
            )),
            None => Ok(""),
        }
    };
    budget.bytes(s.len())?;
    Ok(match method {
        Method::Lower => Value::String(s.to_lowercase()),
        Method::Upper => Value::String(s.to_uppercase()),
        Method::Strip | Method::Lstrip | Method::Rstrip => {
            let set = strip_set(args.first())?;
            let keep = |c: char| match &set {
                None => is_space(c),
                Some(set) => set.contains(&c),
            };
            Value::from(match method {
                Method::Strip => s.trim_matches(keep),
                Method::Lstrip => s.trim_start_matches(keep),
                _ => s.trim_end_matches(keep),
            })
        }
        Method::Title => Value::String(str_title(s)),
        Method::Capitalize => Value::String(capitalize(s)),
        Method::Replace => {
            let count = match args.get(2) {
                None => -1,
                Some(Value::Number(Number(Num::Int(n)))) => *n,
                Some(other) => {
                    return Err(Fail::Arg(
                        2,
                        format!("the count must be an integer, not {}", a_type(other)),
                    ));
                }
            };
            Value::String(replace(s, arg_str(0)?, arg_str(1)?, count, budget)?)
        }
        Method::Endswith => Value::Bool(s.ends_with(arg_str(0)?)),
        Method::Join => {
            let items = iterate(&args[0]).map_err(|m| Fail::Arg(0, m))?;
            let mut out = String::new();
            for (i, item) in items.iter().enumerate() {
                let Value::String(piece) = item else {
                    return Err(Fail::Arg(
                        0,
                        format!("`.join()` takes strings: item {i} is {}", a_type(item)),
                    ));
                };
                if i > 0 {
                    budget.bytes(s.len())?;
                    out.push_str(s);
                }
                budget.bytes(piece.len())?;
                out.push_str(piece);
            }
            Value::String(out)
        }
        Method::Count => {
            let sub = arg_str(0)?;
            Value::from(if sub.is_empty() {
                s.chars().count() + 1
            } else {
                s.matches(sub).count()
            })
        }
        Method::Find => {
            let sub = arg_str(0)?;
            match s.find(sub) {
                Some(at) => Value::from(s[..at].chars().count()),
                None => Value::from(-1),
            }
        }
        Method::SplitMax | Method::Rsplit => {
            let sep = match args.first() {
                None | Some(Value::Null) => None,
                Some(Value::String(sep)) if sep.is_empty() => {
                    return Err(Fail::Arg(0, "the separator must not be empty".to_owned()));
                }
                Some(Value::String(sep)) => Some(sep.as_str()),
                Some(other) => {
                    return Err(Fail::Arg(
                        0,
                        format!("the separator must be a string, not {}", a_type(other)),
                    ));
                }
            };
            let most = match args.get(1) {
                None => None,
                Some(Value::Number(Number(Num::Int(n)))) => usize::try_from(*n).ok(),
                Some(Value::Bool(b)) => Some(usize::from(*b)),
                Some(other) => {
                    return Err(Fail::Arg(
                        1,
                        format!("the most splits must be an integer, not {}", a_type(other)),
                    ));
                }
            };
            let pieces = split_at_most(s, sep, most, method == Method::Rsplit);
            budget.steps(pieces.len())?;
            Value::Array(pieces.into_iter().map(Value::from).collect())
        }
        Method::Ljust | Method::Rjust | Method::Center => {
            let width = int_of(args.first())?;
            let fill = match args.get(1) {
                None => ' ',
                Some(Value::String(f)) if f.chars().count() == 1 => f.chars().next().unwrap_or(' '),
                Some(_) => {
                    return Err(Fail::Arg(
                        1,
                        "The fill character must be exactly one character long".to_owned(),
                    ));
                }
            };
            let len = s.chars().count() as i128;
            if width <= len {
                return Ok(Value::String(s.clone()));
            }
            let margin = width - len;
            budget.bytes(
                usize::try_from(margin)
                    .unwrap_or(usize::MAX)
                    .saturating_mul(fill.len_utf8()),
            )?;
            let (left, right) = match method {
                Method::Ljust => (0, margin),
                Method::Rjust => (margin, 0),
                // Python's `str.center`: the odd space on the right, unless the width is odd
                // too.
                _ => {
                    let left = margin / 2 + (margin & width & 1);
                    (left, margin - left)
                }
            };
            let pad = |n: i128| fill.to_string().repeat(usize::try_from(n).unwrap_or(0));
            Value::String(format!("{}{s}{}", pad(left), pad(right)))
        }
        Method::Zfill => {
            let width = int_of(args.first())?;
            let len = s.chars().count() as i128;
            if width <= len {
                return Ok(Value::String(s.clone()));
            }
            let zeros = usize::try_from(width - len).unwrap_or(usize::MAX);
            budget.bytes(zeros)?;
            let (sign, rest) = match s.strip_prefix(['+', '-']) {
                Some(rest) => (&s[..1], rest),
                None => ("", s.as_str()),
            };
            Value::String(format!("{sign}{}{rest}", "0".repeat(zeros)))
        }
        Method::Splitlines => {
            let keep = args.first().is_some_and(super::value::truthy);
            let lines = crate::python::space::split_lines(s, keep);
            budget.steps(lines.len())?;
            budget.bytes(lines.len().saturating_mul(std::mem::size_of::<Value>()))?;
            Value::Array(lines.into_iter().map(Value::from).collect())
        }
        Method::Removeprefix => Value::from(s.strip_prefix(arg_str(0)?).unwrap_or(s)),
        Method::Removesuffix => Value::from(s.strip_suffix(arg_str(0)?).unwrap_or(s)),
        Method::Partition | Method::Rpartition => {
            let sep = arg_str(0)?;
            if sep.is_empty() {
                return Err(Fail::Arg(0, "empty separator".to_owned()));
            }
            let found = if method == Method::Partition {
                s.find(sep)
            } else {
                s.rfind(sep)
            };
            let (a, b, c) = match found {
                Some(at) => (&s[..at], sep, &s[at + sep.len()..]),
                None if method == Method::Partition => (s.as_str(), "", ""),
                None => ("", "", s.as_str()),
            };
            Value::Tuple(vec![Value::from(a), Value::from(b), Value::from(c)])
        }
        Method::Rfind | Method::Index | Method::Rindex => {
            let sub = arg_str(0)?;
            let found = if method == Method::Index {
                s.find(sub)
            } else {
                s.rfind(sub)
            };
            match found {
                Some(at) => Value::from(s[..at].chars().count()),
                None if method == Method::Rfind => Value::from(-1),
                None => return here("substring not found"),
            }
        }
        Method::Isspace => Value::Bool(!s.is_empty() && s.chars().all(is_space)),
        Method::Islower => Value::Bool(cased(s, false)),
        Method::Isupper => Value::Bool(cased(s, true)),
        Method::Keys | Method::Values | Method::Get => return no_such(),
    })
}

/// An integer argument as Python's `str` methods take it (a `bool` is one).
fn int_of(arg: Option<&Value>) -> Done<i128> {
    match arg {
        Some(Value::Number(Number(Num::Int(n)))) => Ok(*n),
        Some(Value::Bool(b)) => Ok(i128::from(*b)),
        Some(other) => Err(Fail::Arg(
            0,
            format!(
                "'{}' object cannot be interpreted as an integer",
                super::value::type_name(other)
            ),
        )),
        None => Ok(0),
    }
}

/// Python's `s.split(sep, maxsplit)` (`from_end`: `s.rsplit(sep, maxsplit)`); `most` is
/// `None` for no bound (a negative `maxsplit`). Without a separator, runs of whitespace
/// split and the ends' whitespace goes, but a piece left whole when the count runs out
/// keeps the whitespace inside it and at its far end, as Python keeps it.
pub(crate) fn split_at_most<'s>(
    s: &'s str,
    sep: Option<&str>,
    most: Option<usize>,
    from_end: bool,
) -> Vec<&'s str> {
    let most = most.unwrap_or(usize::MAX);
    let mut pieces = Vec::new();
    match sep {
        Some(sep) if from_end => {
            pieces.extend(s.rsplitn(most.saturating_add(1), sep));
            pieces.reverse();
        }
        Some(sep) => pieces.extend(s.splitn(most.saturating_add(1), sep)),
        None if from_end => {
            let mut rest = s.trim_end_matches(super::lexer::py_space);
            while !rest.is_empty() {
                if pieces.len() == most {
                    pieces.push(rest);
                    break;
                }
                match rest.rfind(super::lexer::py_space) {
                    Some(at) => {
                        let space = rest[at..].chars().next().map_or(1, char::len_utf8);
                        pieces.push(&rest[at + space..]);
                        rest = rest[..at].trim_end_matches(super::lexer::py_space);
                    }
                    None => {
                        pieces.push(rest);
                        break;
                    }
                }
            }
            pieces.reverse();
        }
        None => {
            let mut rest = s.trim_start_matches(super::lexer::py_space);
            while !rest.is_empty() {
                if pieces.len() == most {
                    pieces.push(rest);
                    break;
                }
                match rest.find(super::lexer::py_space) {
                    Some(at) => {
                        pieces.push(&rest[..at]);
                        rest = rest[at..].trim_start_matches(super::lexer::py_space);
                    }
                    None => {
                        pieces.push(rest);
                        break;
                    }
                }
            }
        }
    }
    pieces
}

/// The items of an iterable, as Python's `for` gives them: a list's or tuple's items, a
/// dict's keys, a string's characters.
pub(crate) fn iterate(value: &Value) -> Result<Vec<Value>, String> {
    Ok(match value {
        Value::Array(items) | Value::Tuple(items) => items.clone(),
        Value::Object(map) => map.keys().map(Value::from).collect(),
        Value::String(s) => s.chars().map(|c| Value::String(c.to_string())).collect(),
        other => return Err(format!("{} cannot be looped over", a_type(other))),
    })
}

/// `value is test(arg)`, for a value that is there (`None`: one that is not defined).
pub(crate) fn test(
    test: Test,
    value: Option<&Value>,
    arg: Option<&Value>,
    budget: &mut Budget,
) -> Done<bool> {
    let Some(value) = value else {
        // Jinja2's undefined: not a number nor a string, yet iterable and sized (empty),
        // equal only to another undefined.
        return Ok(match test {
            Test::Undefined | Test::Sequence | Test::Iterable | Test::Ne => true,
            Test::Even
            | Test::Odd
            | Test::Divisibleby
            | Test::Lt
            | Test::Le
            | Test::Gt
            | Test::Ge => {
                return here("a value that is not defined cannot be tested that way");
            }
            _ => false,
        });
    };
    let arg_value = || arg.ok_or_else(|| Fail::Here("this test needs an argument".into()));
    let modulo = |by: &Value| -> Done<bool> {
        let mut budget = Budget { bytes: 0, steps: 0 };
        let rest = binary(BinOp::Mod, value, by, &mut budget)?;
        Ok(!truthy(&rest))
    };
    let ordered = |want: fn(Ordering) -> bool| -> Done<bool> {
        let other = arg_value()?;
        match order(value, other) {
            Some(o) => Ok(want(o)),
            None => here(format!(
                "cannot order {} and {}",
                a_type(value),
                a_type(other)
            )),
        }
    };
    Ok(match test {
        Test::Defined => true,
        Test::Undefined => false,
        Test::None => value.is_null(),
        Test::Number => matches!(value, Value::Number(_) | Value::Bool(_)),
        Test::String => matches!(value, Value::String(_)),
        Test::Mapping => matches!(value, Value::Object(_)),
        Test::Sequence | Test::Iterable => matches!(
            value,
            Value::String(_) | Value::Array(_) | Value::Tuple(_) | Value::Object(_)
        ),
        Test::Even => modulo(&Value::from(2))?,
        Test::Odd => !modulo(&Value::from(2))?,
        Test::Divisibleby => modulo(arg_value()?)?,
        Test::Eq => equal(value, arg_value()?),
        Test::Ne => !equal(value, arg_value()?),
        Test::Lt => ordered(Ordering::is_lt)?,
        Test::Le => ordered(Ordering::is_le)?,
        Test::Gt => ordered(Ordering::is_gt)?,
        Test::Ge => ordered(Ordering::is_ge)?,
        Test::In => {
            let haystack = arg_value()?;
            // Each item looked through is a step, as for the `in` operator.
            budget.steps(match haystack {
                Value::Array(items) | Value::Tuple(items) => items.len(),
                Value::String(text) => text.len() / 64,
                _ => 1,
            })?;
            match contains(haystack, value) {
                Some(found) => found,
                None => {
                    return Err(Fail::Arg(
                        0,
                        format!("cannot look for {} in {}", a_type(value), a_type(haystack)),
                    ));
                }
            }
        }
        Test::True => matches!(value, Value::Bool(true)),
        Test::False => matches!(value, Value::Bool(false)),
        Test::Boolean => matches!(value, Value::Bool(_)),
        Test::Integer => matches!(value, Value::Number(n) if !n.is_f64()),
        Test::Float => matches!(value, Value::Number(n) if n.is_f64()),
        Test::Lower => cased(&text(value), false),
        Test::Upper => cased(&text(value), true),
        Test::Callable | Test::Escaped => false,
        Test::Filter => {
            matches!(value, Value::String(s) if super::expr::JINJA2_FILTERS.contains(&s.as_str()))
        }
        Test::Predicate => {
            matches!(value, Value::String(s) if super::expr::JINJA2_TESTS.contains(&s.as_str()))
        }
    })
}

/// Python's `str.islower()` / `str.isupper()`: some cased character, none of the other
/// case.
fn cased(s: &str, upper: bool) -> bool {
    let mut any = false;
    for c in s.chars() {
        let (is_upper, is_lower) = (c.is_uppercase(), c.is_lowercase());
        if (upper && is_lower) || (!upper && is_upper) {
            return false;
        }
        any |= if upper { is_upper } else { is_lower };
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget() -> Budget {
        Budget {
            bytes: 1 << 20,
            steps: 1 << 20,
        }
    }

    fn show(value: &Value) -> String {
        let mut out = String::new();
        super::super::value::write_repr(&mut out, value);
        out
    }

    #[test]
    fn arithmetic_is_pythons() {
        let v = |json: &str| Value::from_json(json).unwrap();
        let cases = [
            (BinOp::FloorDiv, "-7", "2", "-4"),
            (BinOp::FloorDiv, "7", "-2", "-4"),
            (BinOp::Mod, "-7", "2", "1"),
            (BinOp::Mod, "7", "-2", "-1"),
            (BinOp::Mod, "-7.5", "2", "0.5"),
            (BinOp::FloorDiv, "7.5", "-2", "-4.0"),
            (BinOp::Div, "1", "3", "0.3333333333333333"),
            (BinOp::Pow, "2", "-1", "0.5"),
            (BinOp::Pow, "2", "100", "1267650600228229401496703205376"),
            (BinOp::Add, "true", "1", "2"),
            (BinOp::Mul, "\"ab\"", "3", "'ababab'"),
            (BinOp::Mul, "2", "[1]", "[1, 1]"),
            (BinOp::Mul, "[1]", "-1", "[]"),
            (BinOp::Add, "[1]", "[2]", "[1, 2]"),
            (BinOp::Concat, "1", "null", "'1None'"),
        ];
        for (op, a, b, want) in cases {
            let got = binary(op, &v(a), &v(b), &mut budget()).unwrap();
            assert_eq!(show(&got), want, "{a} {} {b}", op.symbol());
        }
        for (op, a, b) in [
            (BinOp::Pow, "2", "200"),
            (BinOp::Pow, "10", "100000000000"),
            (
                BinOp::Add,
                "100000000000000000000000000000000000000000",
                "1",
            ),
            (BinOp::Div, "1", "0"),
            (BinOp::Mod, "1", "0"),
            (BinOp::Sub, "\"a\"", "1"),
            (BinOp::Pow, "-8", "0.5"),
            (BinOp::Pow, "10.0", "400"),
        ] {
            assert!(binary(op, &v(a), &v(b), &mut budget()).is_err(), "{a} {b}");
        }
        let mut small = Budget {
            bytes: 10,
            steps: 10,
        };
        assert!(matches!(
            binary(BinOp::Mul, &v("\"ab\""), &v("6"), &mut small),
            Err(Fail::Large)
        ));
    }

    #[test]
    fn slices_pick_what_python_picks() {
        let s = Value::from("abcdef");
        let none = Value::Null;
        let n = |i: i64| Value::from(i);
        let cases = [
            ((none.clone(), n(3), none.clone()), "'abc'"),
            ((n(-2), none.clone(), none.clone()), "'ef'"),
            ((none.clone(), none.clone(), n(2)), "'ace'"),
            ((none.clone(), none.clone(), n(-1)), "'fedcba'"),
            ((n(4), n(1), n(-2)), "'ec'"),
            ((n(10), n(20), none.clone()), "''"),
            ((n(-100), n(2), none.clone()), "'ab'"),
        ];
        for ((a, b, c), want) in cases {
            let got = slice(&s, &a, &b, &c, &mut budget()).unwrap();
            assert_eq!(show(&got), want);
        }
        assert!(slice(&s, &none, &none, &n(0), &mut budget()).is_err());
        assert!(slice(&n(1), &none, &none, &none, &mut budget()).is_err());
    }

    #[test]
    fn string_helpers_are_pythons() {
        assert_eq!(str_title("hello wORLD's x1y"), "Hello World'S X1Y");
        assert_eq!(title_filter("hello wORLD's (x-y)"), "Hello World's (X-Y)");
        assert_eq!(capitalize("hELLO"), "Hello");
        assert_eq!(replace("aaa", "a", "b", 2, &mut budget()).unwrap(), "bba");
        assert_eq!(replace("ab", "", "-", -1, &mut budget()).unwrap(), "-a-b-");
        assert!(cased("abc1", false) && !cased("aBc", false) && !cased("12", true));
    }

    #[test]
    fn string_methods_refuse_as_python_does() {
        let call = |method: Method, receiver: &str, args: &[Value]| match method_inline(
            method,
            &Value::from(receiver),
            args,
            &mut budget(),
        ) {
            Ok(value) => format!("{value:?}"),
            Err(Fail::Here(m) | Fail::Arg(_, m)) => m,
            Err(other) => format!("{other:?}"),
        };
        assert_eq!(
            call(Method::Index, "abc", &[Value::from("z")]),
            "substring not found"
        );
        assert_eq!(
            call(Method::Rindex, "abc", &[Value::from("z")]),
            "substring not found"
        );
        assert_eq!(
            call(Method::Partition, "abc", &[Value::from("")]),
            "empty separator"
        );
        assert_eq!(
            call(Method::Ljust, "a", &[Value::from(3), Value::from("ab")]),
            "The fill character must be exactly one character long"
        );
        assert_eq!(
            call(Method::Zfill, "a", &[Value::from("3")]),
            "'str' object cannot be interpreted as an integer"
        );
        // A width past what the render may build stops it, and builds nothing first.
        assert!(matches!(
            method_inline(
                Method::Rjust,
                &Value::from("a"),
                &[Value::from(1i128 << 70)],
                &mut budget()
            ),
            Err(Fail::Large)
        ));
    }
}
