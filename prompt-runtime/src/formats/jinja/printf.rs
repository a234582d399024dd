//! Python's `%` formatting of text, as Jinja2 gives it twice: the `%` operator with text on
//! its left (`"%.2f" % price`, `"%s and %s" % (a, b)`, `"%(name)s" % user`) and the
//! `format` filter (`"%.2f" | format(price)`, `"%(name)s" | format(name=n)`, which is
//! `text % args` or `text % kwargs`).
//!
//! Each conversion is Python's: `s`, `r` and `a` (its `str()`, `repr()` and `ascii()`),
//! `d`, `i` and `u` (an integer, a float cut toward zero), `x`, `X` and `o`, `e`, `E`,
//! `f`, `F`, `g` and `G`, and `c`; the flags `-`, `+`, space, `#` and `0`, a width and a
//! precision (either as `*`, taken from the arguments), and `%(key)` to take a value of a
//! mapping by its key. Floats are rounded as Python rounds them (to the nearest, halves
//! to even, from the float's exact value). What Python refuses is an error with Python's
//! message: a value of the wrong type, too few or too many arguments, an unknown
//! conversion.

use super::data::{Num, Number, Value};
use super::ops::{Budget, Done, Fail};
use super::value::{type_name, write_repr, write_str};

/// What a format is applied to: Python's right operand of `%`.
#[derive(Clone, Copy)]
pub(crate) enum Operand<'v> {
    /// A tuple: one argument per conversion, in order.
    Tuple(&'v [Value]),
    /// A mapping: the values of `%(key)` conversions (and itself for a bare one).
    Mapping(&'v Value),
    /// Any other value: the one argument.
    Single(&'v Value),
}

impl<'v> Operand<'v> {
    /// `value` as the right operand of `%`.
    pub(crate) fn of(value: &'v Value) -> Operand<'v> {
        match value {
            Value::Tuple(items) => Operand::Tuple(items),
            Value::Object(_) => Operand::Mapping(value),
            other => Operand::Single(other),
        }
    }
}

fn fail<T>(message: impl Into<String>) -> Done<T> {
    Err(Fail::Here(message.into()))
}

/// The arguments as Python hands them to the conversions.
struct Args<'v> {
    operand: Operand<'v>,
    /// The next tuple item; for a single value or a mapping, whether it was taken.
    next: usize,
}

impl<'v> Args<'v> {
    fn next(&mut self) -> Done<&'v Value> {
        let found = match self.operand {
            Operand::Tuple(items) => items.get(self.next),
            Operand::Mapping(value) | Operand::Single(value) => (self.next == 0).then_some(value),
        };
        self.next += 1;
        found.map_or_else(|| fail("not enough arguments for format string"), Ok)
    }

    /// Whether arguments were left over: Python's error, but not for a mapping.
    fn left_over(&self) -> bool {
        match self.operand {
            Operand::Tuple(items) => self.next < items.len(),
            Operand::Single(_) => self.next == 0,
            Operand::Mapping(_) => false,
        }
    }
}

/// One conversion's flags, width and precision.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alternate: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

/// `format % operand`, as Python computes it.
pub(crate) fn percent(format: &str, operand: Operand<'_>, budget: &mut Budget) -> Done<String> {
    let mut out = String::with_capacity(format.len());
    let mut args = Args { operand, next: 0 };
    let mut used_key = false;
    let chars: Vec<char> = format.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.get(i) == Some(&'%') {
            out.push('%');
            i += 1;
            continue;
        }
        let mut keyed: Option<&Value> = None;
        if chars.get(i) == Some(&'(') {
            let Operand::Mapping(Value::Object(map)) = args.operand else {
                return fail("format requires a mapping");
            };
            // The key runs to the matching `)`, nested parentheses counted.
            let start = i + 1;
            let mut depth = 1;
            i += 1;
            while i < chars.len() && depth > 0 {
                match chars[i] {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            if depth > 0 {
                return fail("incomplete format key");
            }
            let key: String = chars[start..i - 1].iter().collect();
            match map.get(&key) {
                Some(value) => keyed = Some(value),
                None => {
                    let mut shown = String::new();
                    write_repr(&mut shown, &Value::String(key));
                    return fail(format!(
                        "the format reads the key {shown}, which the mapping lacks (Python's KeyError)"
                    ));
                }
            }
            used_key = true;
        }
        let mut spec = Spec::default();
        while let Some(&flag) = chars.get(i) {
            match flag {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '#' => spec.alternate = true,
                '0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        if chars.get(i) == Some(&'*') {
            i += 1;
            let width = star(args.next()?)?;
            if width < 0 {
                spec.left = true;
            }
            spec.width = usize::try_from(width.unsigned_abs()).unwrap_or(usize::MAX);
        } else {
            spec.width = digits(&chars, &mut i, "width")?;
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            spec.precision = Some(if chars.get(i) == Some(&'*') {
                i += 1;
                usize::try_from(star(args.next()?)?.max(0)).unwrap_or(usize::MAX)
            } else {
                digits(&chars, &mut i, "precision")?
            });
        }
        // Python reads a length modifier and ignores it.
        while matches!(chars.get(i), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let Some(&conversion) = chars.get(i) else {
            return fail("incomplete format");
        };
        let at = i;
        i += 1;
        let value = match keyed {
            Some(value) => value,
            None => args.next()?,
        };
        budget.bytes(spec.width.max(spec.precision.unwrap_or(0)))?;
        let piece = convert(conversion, value, &spec, at, budget)?;
        budget.bytes(piece.len())?;
        out.push_str(&piece);
    }
    if !used_key && args.left_over() {
        return fail("not all arguments converted during string formatting");
    }
    Ok(out)
}

/// The digits of a width or precision at `chars[*i..]`, 0 when there are none.
fn digits(chars: &[char], i: &mut usize, what: &str) -> Done<usize> {
    let mut n: usize = 0;
    while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(10)) {
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(d as usize))
            .map_or_else(|| fail(format!("{what} too big")), Ok)?;
        *i += 1;
    }
    Ok(n)
}

/// A `*` width or precision: an integer argument.
fn star(value: &Value) -> Done<i128> {
    match value {
        Value::Bool(b) => Ok(i128::from(*b)),
        Value::Number(Number(Num::Int(n))) => Ok(*n),
        _ => fail("* wants int"),
    }
}

/// One conversion of `value`, padded to the spec's width.
fn convert(
    conversion: char,
    value: &Value,
    spec: &Spec,
    at: usize,
    budget: &mut Budget,
) -> Done<String> {
    match conversion {
        's' | 'r' | 'a' => {
            let mut text = String::new();
            match conversion {
                's' => write_str(&mut text, value),
                'r' => write_repr(&mut text, value),
                _ => ascii(&mut text, value),
            }
            if let Some(p) = spec.precision
                && let Some((cut, _)) = text.char_indices().nth(p)
            {
                text.truncate(cut);
            }
            Ok(pad(spec, "", "", &text, false))
        }
        'c' => {
            let ch = match value {
                Value::String(s) if s.chars().count() == 1 => s.clone(),
                Value::Bool(_) | Value::Number(Number(Num::Int(_) | Num::Big(_))) => {
                    let code = match value {
                        Value::Bool(b) => Some(u32::from(*b)),
                        Value::Number(Number(Num::Int(n))) => u32::try_from(*n).ok(),
                        _ => None,
                    };
                    match code.filter(|&c| c < 0x11_0000) {
                        Some(code) => match char::from_u32(code) {
                            Some(ch) => ch.to_string(),
                            None => {
                                return fail(
                                    "%c of a surrogate code point gives text promptic cannot hold",
                                );
                            }
                        },
                        None => return fail("%c arg not in range(0x110000)"),
                    }
                }
                _ => return fail("%c requires int or char"),
            };
            Ok(pad(spec, "", "", &ch, false))
        }
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' => {
            let (negative, magnitude) = integer(conversion, value)?;
            let (radix, prefix) = match conversion {
                'x' => (16, "0x"),
                'X' => (16, "0X"),
                'o' => (8, "0o"),
                _ => (10, ""),
            };
            // Another base takes a pass over the digits for each digit it writes.
            if radix != 10 {
                budget.steps(magnitude.len().saturating_mul(magnitude.len()) / 8)?;
            }
            let mut body = in_radix(&magnitude, radix);
            if conversion == 'X' {
                body.make_ascii_uppercase();
            }
            if let Some(p) = spec.precision
                && body.len() < p
            {
                body.insert_str(0, &"0".repeat(p - body.len()));
            }
            let prefix = if spec.alternate { prefix } else { "" };
            Ok(pad(spec, sign(spec, negative), prefix, &body, true))
        }
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
            let f = real(value)?;
            let upper = conversion.is_ascii_uppercase();
            let mut body = if f.is_nan() {
                "nan".to_owned()
            } else if f.is_infinite() {
                "inf".to_owned()
            } else {
                let precision = spec.precision.unwrap_or(6);
                match conversion.to_ascii_lowercase() {
                    'f' => fixed(f.abs(), precision, spec.alternate),
                    'e' => exponent(f.abs(), precision, spec.alternate),
                    _ => general(f.abs(), precision, spec.alternate),
                }
            };
            if upper {
                body.make_ascii_uppercase();
            }
            let negative = f.is_sign_negative() && !f.is_nan();
            Ok(pad(spec, sign(spec, negative), "", &body, true))
        }
        other => fail(format!(
            "unsupported format character {} ({:#x}) at index {at}",
            quoted_char(other),
            u32::from(other)
        )),
    }
}

/// A character as Python's message shows it: `'y'`.
fn quoted_char(c: char) -> String {
    let mut shown = String::new();
    write_repr(&mut shown, &Value::String(c.to_string()));
    shown
}

/// The sign a number is written with.
fn sign(spec: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

/// `sign`, `prefix` and `body` padded to the width: on the right with `-`, with zeros
/// after the sign and prefix with `0` (numbers only), else with spaces on the left.
fn pad(spec: &Spec, sign: &str, prefix: &str, body: &str, number: bool) -> String {
    let len = sign.len() + prefix.len() + body.chars().count();
    let fill = spec.width.saturating_sub(len);
    let mut out = String::with_capacity(len + fill);
    if spec.left {
        out.push_str(sign);
        out.push_str(prefix);
        out.push_str(body);
        out.extend(std::iter::repeat_n(' ', fill));
    } else if spec.zero && number {
        out.push_str(sign);
        out.push_str(prefix);
        out.extend(std::iter::repeat_n('0', fill));
        out.push_str(body);
    } else {
        out.extend(std::iter::repeat_n(' ', fill));
        out.push_str(sign);
        out.push_str(prefix);
        out.push_str(body);
    }
    out
}

/// The integer `%d` (and kin) prints: its sign and its decimal digits. A float is cut
/// toward zero; `%x` and `%o` take integers only.
fn integer(conversion: char, value: &Value) -> Done<(bool, String)> {
    let split = |digits: &str| match digits.strip_prefix('-') {
        Some(rest) => (true, rest.to_owned()),
        None => (false, digits.to_owned()),
    };
    match value {
        Value::Bool(b) => Ok((false, u8::from(*b).to_string())),
        Value::Number(Number(Num::Int(n))) => Ok((*n < 0, n.unsigned_abs().to_string())),
        Value::Number(Number(Num::Big(digits))) => Ok(split(digits)),
        Value::Number(Number(Num::Float(f))) if matches!(conversion, 'd' | 'i' | 'u') => {
            if f.is_nan() {
                return fail("cannot convert float NaN to integer");
            }
            if f.is_infinite() {
                return fail("cannot convert float infinity to integer");
            }
            // An integral float's `{:.0}` is its exact decimal value.
            Ok(split(&format!("{:.0}", f.trunc())))
                .map(|(negative, digits)| (negative && digits != "0", digits))
        }
        other => {
            let required = if matches!(conversion, 'd' | 'i' | 'u') {
                "a real number"
            } else {
                "an integer"
            };
            fail(format!(
                "%{conversion} format: {required} is required, not {}",
                type_name(other)
            ))
        }
    }
}

/// Decimal `digits` written in `radix` (10, 16 or 8), lowercase.
fn in_radix(digits: &str, radix: u32) -> String {
    if radix == 10 {
        return digits.to_owned();
    }
    // Long division of the decimal digits by the radix, a digit of the result each time.
    let mut number: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(10)).collect();
    let mut out = Vec::new();
    while number.iter().any(|&d| d != 0) {
        let mut rest = 0;
        for d in &mut number {
            let current = rest * 10 + *d;
            *d = current / radix;
            rest = current % radix;
        }
        out.push(char::from_digit(rest, radix).unwrap_or('0'));
        let zeros = number.iter().take_while(|&&d| d == 0).count();
        number.drain(..zeros);
    }
    if out.is_empty() {
        return "0".to_owned();
    }
    out.iter().rev().collect()
}

/// The float `%f` (and kin) prints: Python's `float(value)` of a number.
fn real(value: &Value) -> Done<f64> {
    match value {
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        Value::Number(Number(Num::Int(n))) => Ok(*n as f64),
        Value::Number(Number(Num::Float(f))) => Ok(*f),
        Value::Number(Number(Num::Big(digits))) => match digits.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(f),
            _ => fail("int too large to convert to float"),
        },
        other => fail(format!("must be real number, not {}", type_name(other))),
    }
}

/// `%f` of a finite, non-negative float.
fn fixed(f: f64, precision: usize, alternate: bool) -> String {
    let mut out = format!("{f:.precision$}");
    if alternate && precision == 0 {
        out.push('.');
    }
    out
}

/// `%e` of a finite, non-negative float: a mantissa and an exponent of two digits at least.
fn exponent(f: f64, precision: usize, alternate: bool) -> String {
    let written = format!("{f:.precision$e}");
    let (mantissa, exp) = written.split_once('e').unwrap_or((&written, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if alternate && precision == 0 { "." } else { "" };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}{dot}e{sign}{:02}", exp.unsigned_abs())
}

/// `%g` of a finite, non-negative float: `%e` or `%f` by the exponent, without trailing
/// zeros unless `#`.
fn general(f: f64, precision: usize, alternate: bool) -> String {
    let p = precision.max(1);
    // The exponent of the value rounded to `p` digits.
    let rounded = format!("{f:.prec$e}", prec = p - 1);
    let exp: i64 = rounded
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let p_i = i64::try_from(p).unwrap_or(i64::MAX);
    let mut out = if (-4..p_i).contains(&exp) {
        let decimals = usize::try_from(p_i - 1 - exp).unwrap_or(0);
        fixed(f, decimals, alternate)
    } else {
        exponent(f, p - 1, alternate)
    };
    if !alternate {
        let (number, exp_part) = match out.find('e') {
            Some(at) => (out[..at].to_owned(), out[at..].to_owned()),
            None => (out.clone(), String::new()),
        };
        let number = if number.contains('.') {
            number
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_owned()
        } else {
            number
        };
        out = number + &exp_part;
    }
    out
}

/// Python's `ascii()`: `repr()` with every character past ASCII escaped.
fn ascii(out: &mut String, value: &Value) {
    let mut repr = String::new();
    write_repr(&mut repr, value);
    for c in repr.chars() {
        let code = u32::from(c);
        match code {
            0..=0x7f => out.push(c),
            0x80..=0xff => out.push_str(&format!("\\x{code:02x}")),
            0x100..=0xffff => out.push_str(&format!("\\u{code:04x}")),
            _ => out.push_str(&format!("\\U{code:08x}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Operand, percent};
    use crate::formats::jinja::data::Value;
    use crate::formats::jinja::ops::{Budget, Fail};

    fn run(format: &str, operand: &Value) -> Result<String, String> {
        let mut budget = Budget {
            bytes: 1 << 20,
            steps: 1 << 20,
        };
        percent(format, Operand::of(operand), &mut budget).map_err(|e| match e {
            Fail::Here(m) | Fail::Arg(_, m) => m,
            other => format!("{other:?}"),
        })
    }

    fn json(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    fn tuple(items: &str) -> Value {
        match json(items) {
            Value::Array(items) => Value::Tuple(items),
            _ => unreachable!(),
        }
    }

    /// Each line as Python 3 prints it (`format % operand`).
    #[test]
    fn conversions_print_as_python_prints_them() {
        for (format, operand, want) in [
            ("%.*f", "[2, 3.14159]", "3.14"),
            ("%-*d|", "[-5, 3]", "3    |"),
            ("%s", r#"[[1, "a", null]]"#, "[1, 'a', None]"),
            ("%r", r#"["it's"]"#, r#""it's""#),
            ("%a", r#"["é😀"]"#, r"'\xe9\U0001f600'"),
            ("%05s", r#"["a"]"#, "    a"),
            ("%+.2e", "[12345.678]", "+1.23e+04"),
            (
                "%g|%g|%g|%g",
                "[0.0001, 0.00001, 123456789.0, 100000.0]",
                "0.0001|1e-05|1.23457e+08|100000",
            ),
            (
                "%#g|%G|%.3g|%g",
                "[1.0, 1e-10, 1234.5, 1e16]",
                "1.00000|1E-10|1.23e+03|1e+16",
            ),
            (
                "%.0f %.0f %.2f %.2f",
                "[0.5, 1.5, 2.675, -0.0]",
                "0 2 2.67 -0.00",
            ),
            ("%#x %#o %X %.3d", "[255, 8, -255, 5]", "0xff 0o10 -FF 005"),
            ("%+d|% d|%-5d|%05d", "[true, 5, 3, -3]", "+1| 5|3    |-0003"),
            ("%c%c%c", r#"[65, "é", true]"#, "Aé\u{1}"),
            ("%d %i %u", "[2.7, -2.7, 7]", "2 -2 7"),
            (
                "%f|%e|%10.3e|",
                "[true, 0.0, 1.5]",
                "1.000000|0.000000e+00| 1.500e+00|",
            ),
            ("%#.0f %#.0e %.1s", r#"[1.0, 1.0, "abc"]"#, "1. 1.e+00 a"),
            ("%-010d|%%|%s%%", "[5, 1]", "5         |%|1%"),
        ] {
            assert_eq!(
                run(format, &tuple(operand)).as_deref(),
                Ok(want),
                "{format}"
            );
        }
        // An integer past 128 bits, exact.
        let big = crate::formats::jinja::data::Number::from_digits(
            "-1000000000000000000000000000000000000000",
        )
        .map(Value::Number)
        .unwrap();
        assert_eq!(
            run(
                "%d %x %.2e",
                &Value::Tuple(vec![big.clone(), big.clone(), big])
            )
            .as_deref(),
            Ok(
                "-1000000000000000000000000000000000000000 -2f050fe938943acc45f65568000000000 -1.00e+39"
            )
        );
        // A mapping: its keys, and the mapping itself for a bare conversion.
        let user = json(r#"{"a": "x"}"#);
        assert_eq!(run("%(a)s %(a)r", &user).as_deref(), Ok("x 'x'"));
        assert_eq!(run("%s", &user).as_deref(), Ok("{'a': 'x'}"));
        assert_eq!(run("none", &user).as_deref(), Ok("none"));
        // A single value that is no tuple is the one argument.
        assert_eq!(run("%.2f", &json("2.5")).as_deref(), Ok("2.50"));
        assert_eq!(
            run(
                "%s",
                &Value::Tuple(vec![Value::Tuple(vec![json("1"), json("2")])])
            )
            .as_deref(),
            Ok("(1, 2)")
        );
    }

    /// Python's refusals, each with its message.
    #[test]
    fn what_python_refuses_is_refused_with_its_message() {
        for (format, operand, want) in [
            (
                "%d",
                r#"["a"]"#,
                "%d format: a real number is required, not str",
            ),
            (
                "%i",
                "[null]",
                "%i format: a real number is required, not NoneType",
            ),
            (
                "%x",
                "[2.5]",
                "%x format: an integer is required, not float",
            ),
            ("%f", r#"["a"]"#, "must be real number, not str"),
            ("%c", r#"["ab"]"#, "%c requires int or char"),
            ("%c", "[1114112]", "%c arg not in range(0x110000)"),
            ("%s %s", "[5]", "not enough arguments for format string"),
            (
                "",
                "[5]",
                "not all arguments converted during string formatting",
            ),
            ("%(a)s", "[1]", "format requires a mapping"),
            ("%*d", r#"["a", 1]"#, "* wants int"),
            ("%", "[]", "incomplete format"),
            (
                "%y",
                "[1]",
                "unsupported format character 'y' (0x79) at index 1",
            ),
            (
                "%5%",
                "[1]",
                "unsupported format character '%' (0x25) at index 2",
            ),
            ("%-%", "[]", "not enough arguments for format string"),
        ] {
            assert_eq!(run(format, &tuple(operand)).unwrap_err(), want, "{format}");
        }
        assert_eq!(
            run("%d", &Value::Tuple(vec![Value::from(f64::NAN)])).unwrap_err(),
            "cannot convert float NaN to integer"
        );
        assert_eq!(
            run("%(b)s", &json(r#"{"a": 1}"#)).unwrap_err(),
            "the format reads the key 'b', which the mapping lacks (Python's KeyError)"
        );
        assert_eq!(
            run("%(a", &json(r#"{"a": 1}"#)).unwrap_err(),
            "incomplete format key"
        );
        // A width past what a render may build is refused before it is built.
        let mut budget = Budget {
            bytes: 1 << 10,
            steps: 1 << 20,
        };
        assert!(matches!(
            percent("%999999999s", Operand::of(&json("1")), &mut budget),
            Err(Fail::Large)
        ));
        // Writing a long integer in hex is counted against the render's steps.
        let long = crate::formats::jinja::data::Number::from_digits(&"7".repeat(4000))
            .map(Value::Number)
            .unwrap();
        let mut budget = Budget {
            bytes: 1 << 20,
            steps: 1 << 20,
        };
        assert!(matches!(
            percent("%x", Operand::of(&long), &mut budget),
            Err(Fail::Long)
        ));
    }
}
