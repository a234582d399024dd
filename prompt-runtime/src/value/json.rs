//! JSON text read as Python's `json.loads` reads it, into ordered, exact [`Value`]s: a
//! reader of its own because `serde_json` (without features that would change it for
//! every crate of a build) sorts keys and reads a long integer as a float.

use super::data::{JsonError, MAX_INT_DIGITS, Map, Number, Value};

/// How deep arrays and objects may nest: as deep as `serde_json` reads, so every value
/// read is one the renderer's walks take on a small stack.
const MAX_DEPTH: usize = 128;

pub(super) fn read(text: &str) -> Result<Value, JsonError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    reader.space();
    let value = reader.value(0)?;
    reader.space();
    if reader.at < reader.bytes.len() {
        return Err(reader.error("trailing characters after the value"));
    }
    Ok(value)
}

struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> JsonError {
        JsonError {
            offset: self.at.min(self.bytes.len()),
            message: message.to_owned(),
        }
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        match self.bytes.get(self.at) {
            None => Err(self.error("expected a value, found the end")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => {
                if self.eat("-Infinity") {
                    return Ok(Value::from(f64::NEG_INFINITY));
                }
                self.number()
            }
            Some(_) => {
                for (word, value) in [
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("null", Value::Null),
                    ("NaN", Value::from(f64::NAN)),
                    ("Infinity", Value::from(f64::INFINITY)),
                ] {
                    if self.eat(word) {
                        return Ok(value);
                    }
                }
                Err(self.error("expected a value"))
            }
        }
    }

    fn deeper(&self, depth: usize) -> Result<usize, JsonError> {
        if depth >= MAX_DEPTH {
            return Err(self.error("nested more than 128 deep"));
        }
        Ok(depth + 1)
    }

    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        let depth = self.deeper(depth)?;
        self.at += 1;
        let mut map = Map::new();
        self.space();
        if self.eat("}") {
            return Ok(Value::Object(map));
        }
        loop {
            self.space();
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("expected a key in double quotes"));
            }
            let key = self.string()?;
            self.space();
            if !self.eat(":") {
                return Err(self.error("expected `:` after the key"));
            }
            self.space();
            let value = self.value(depth)?;
            map.insert(key, value);
            self.space();
            if self.eat("}") {
                return Ok(Value::Object(map));
            }
            if !self.eat(",") {
                return Err(self.error("expected `,` or `}`"));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        let depth = self.deeper(depth)?;
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if self.eat("]") {
            return Ok(Value::Array(items));
        }
        loop {
            self.space();
            items.push(self.value(depth)?);
            self.space();
            if self.eat("]") {
                return Ok(Value::Array(items));
            }
            if !self.eat(",") {
                return Err(self.error("expected `,` or `]`"));
            }
        }
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while r.bytes.get(r.at).is_some_and(u8::is_ascii_digit) {
                r.at += 1;
            }
            r.at - from
        };
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let first = self.at;
        if digits(self) == 0 {
            return Err(self.error("expected a digit"));
        }
        if self.bytes[first] == b'0' && self.at - first > 1 {
            self.at = first;
            return Err(self.error("a number may not start with 0"));
        }
        let mut float = false;
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return Err(self.error("expected a digit after `.`"));
            }
            float = true;
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
            float = true;
        }
        let written = &self.text[start..self.at];
        if float {
            return written
                .parse::<f64>()
                .map(Value::from)
                .map_err(|_| self.error("not a number"));
        }
        match Number::from_digits(written) {
            Some(n) => Ok(Value::Number(n)),
            None => {
                self.at = start;
                Err(self.error(&format!(
                    "an integer of more than {MAX_INT_DIGITS} digits (Python refuses it too)"
                )))
            }
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[run..self.at]);
            match self.bytes.get(self.at) {
                None => return Err(self.error("this string is never closed")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = match self.bytes.get(self.at) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            out.push(self.unicode()?);
                            continue;
                        }
                        _ => return Err(self.error("not an escape JSON knows")),
                    };
                    self.at += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.error("a control character inside a string")),
            }
        }
    }

    /// The four hex digits after `\u` (and a second escape for a surrogate pair).
    fn unicode(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        if !(0xd800..0xdc00).contains(&first) {
            return char::from_u32(first).ok_or_else(|| self.error("a lone surrogate"));
        }
        if !self.eat("\\u") {
            return Err(self.error("a lone surrogate"));
        }
        let second = self.hex4()?;
        if !(0xdc00..0xe000).contains(&second) {
            return Err(self.error("a lone surrogate"));
        }
        let code = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
        char::from_u32(code).ok_or_else(|| self.error("not a character"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let hex = self
            .text
            .get(self.at..self.at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("`\\u` needs four hex digits"))?;
        self.at += 4;
        u32::from_str_radix(hex, 16).map_err(|_| self.error("`\\u` needs four hex digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::Value;

    #[test]
    fn reads_as_python_reads() {
        let cases = [
            (r#"{"b": 1, "a": 2, "b": 3}"#, "{'b': 3, 'a': 2}"),
            ("100000000000000000000", "100000000000000000000"),
            (
                "-170141183460469231731687303715884105729",
                "-170141183460469231731687303715884105729",
            ),
            (
                "[1.0, 1e20, -0, -0.0, 2.5E-3]",
                "[1.0, 1e+20, 0, -0.0, 0.0025]",
            ),
            (r#"["\u00e9\ud83d\ude00\n\/"]"#, "['é😀\\n/']"),
            ("[NaN, Infinity, -Infinity]", "[nan, inf, -inf]"),
            (" [ ] ", "[]"),
        ];
        for (json, repr) in cases {
            let value = Value::from_json(json).unwrap();
            let mut out = String::new();
            super::super::python::write_repr(&mut out, &value);
            assert_eq!(out, repr, "{json}");
        }
    }

    #[test]
    fn refuses_what_is_not_json() {
        for (json, at) in [
            ("", 0),
            ("[1,]", 3),
            ("{\"a\" 1}", 5),
            ("01", 0),
            ("\"\\ud800\"", 7),
            ("\"a\nb\"", 2),
            ("[1] 2", 4),
            ("{'a': 1}", 1),
            ("1.", 2),
        ] {
            let error = Value::from_json(json).unwrap_err();
            assert_eq!(error.offset, at, "{json:?}: {error}");
        }
        let deep = "[".repeat(129) + &"]".repeat(129);
        assert!(Value::from_json(&deep).is_err());
        let fine = "[".repeat(128) + &"]".repeat(128);
        assert!(Value::from_json(&fine).is_ok());
        assert!(Value::from_json(&"9".repeat(4301)).is_err());
        assert!(Value::from_json(&"9".repeat(4300)).is_ok());
    }
}
