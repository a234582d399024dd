//! `safe_substitute`, checked against a plain reading of Python's `string.Template` rules.
//!
//! Input: the template text, then names and values, each part ended by a `0xFF` byte
//! (never part of UTF-8 text): `text 0xFF name 0xFF value 0xFF name 0xFF value ...`. Parts
//! that are not UTF-8 are read lossily.

use std::collections::HashMap;

/// One input: `safe_substitute` must not panic and must agree with [`reference`].
pub fn run(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0xFF).map(String::from_utf8_lossy);
    let text = parts.next().unwrap_or_default();
    let mut vars = HashMap::new();
    while let (Some(name), Some(value)) = (parts.next(), parts.next()) {
        vars.insert(name.into_owned(), value.into_owned());
    }
    let out = prompt_runtime::safe_substitute(&text, &vars);
    assert_eq!(
        out,
        reference(&text, &vars),
        "safe_substitute({text:?}, {vars:?})"
    );
}

/// CPython's `Template.safe_substitute`, read off its pattern: at each `$`, in this order,
/// `$$` is a `$`; `$name` (ASCII `[_A-Za-z][_A-Za-z0-9]*`, longest) is its value or stays
/// as written; `${name}` likewise; any other `$` stays. Values are not scanned again.
pub fn reference(text: &str, vars: &HashMap<String, String>) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let (mut i, mut copied) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        out.push_str(&text[copied..i]);
        let after = &bytes[i + 1..];
        let braced = after.first() == Some(&b'{') && {
            let n = name_len(&after[1..]);
            n > 0 && after.get(1 + n) == Some(&b'}')
        };
        let end = if after.first() == Some(&b'$') {
            out.push('$');
            i + 2
        } else if name_len(after) > 0 {
            let end = i + 1 + name_len(after);
            let name = &text[i + 1..end];
            out.push_str(vars.get(name).map_or(&text[i..end], String::as_str));
            end
        } else if braced {
            let end = i + 2 + name_len(&after[1..]) + 1;
            let name = &text[i + 2..end - 1];
            out.push_str(vars.get(name).map_or(&text[i..end], String::as_str));
            end
        } else {
            out.push('$');
            i + 1
        };
        i = end;
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

/// The length of the name at the start of `bytes`, 0 when there is none.
fn name_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
            1 + bytes[1..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count()
        }
        _ => 0,
    }
}
