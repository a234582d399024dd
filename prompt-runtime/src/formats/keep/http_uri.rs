//! The canonical form keep gives an `http://` or `https://` tag value: its RFC 3986
//! syntax-based normalization, as computed with CPython 3.11's `urllib.parse` (whose
//! splitting, host and port rules, and errors decide the result as much as the RFC does).
//!
//! `None` is the case where Python raises `ValueError` (an unbalanced `[`, a bracketed
//! host that is no IPv6 address, a port that is no number in 0..=65535, a host that NFKC
//! turns into a delimiter): keep then leaves the value as it was.

use unicode_normalization::UnicodeNormalization;

const UNRESERVED: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

/// The canonical form of `uri`, which starts with `http://` or `https://` in any case.
pub(crate) fn normalize(uri: &str) -> Option<String> {
    // urlsplit drops tabs and line breaks anywhere (WHATWG's "unsafe bytes")
    let url: String = uri
        .chars()
        .filter(|c| !matches!(c, '\t' | '\r' | '\n'))
        .collect();
    let colon = url.find(':')?;
    let scheme = url[..colon].to_ascii_lowercase();
    let rest = url[colon + 1..].strip_prefix("//")?;
    let netloc_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (netloc, mut path) = rest.split_at(netloc_end);
    match (netloc.find('['), netloc.contains(']')) {
        (Some(open), true) => {
            let inner = &netloc[open + 1..];
            let host = inner.split_once(']').map_or(inner, |(h, _)| h);
            if !bracketed_host_ok(host) {
                return None;
            }
        }
        (None, false) => {}
        _ => return None,
    }
    let mut fragment = "";
    if let Some((before, after)) = path.split_once('#') {
        (path, fragment) = (before, after);
    }
    let mut query = "";
    if let Some((before, after)) = path.split_once('?') {
        (path, query) = (before, after);
    }
    if !netloc_survives_nfkc(netloc) {
        return None;
    }
    let (path, params) = split_params(path);
    let (host, port) = host_and_port(netloc)?;
    let default = if scheme == "http" { 80 } else { 443 };
    let netloc = match port {
        Some(p) if p != 0 && p != default => format!("{host}:{p}"),
        _ => host,
    };
    let mut path = resolve_dot_segments(&decode_unreserved(path));
    if path.is_empty() {
        path.push('/');
    }
    let query = decode_unreserved(query);
    let fragment = decode_unreserved(fragment);
    // urlunparse, then urlunsplit
    let mut url = path;
    if !params.is_empty() {
        url = format!("{url};{params}");
    }
    if !netloc.is_empty() || !url.starts_with("//") {
        if !url.is_empty() && !url.starts_with('/') {
            url.insert(0, '/');
        }
        url = format!("//{netloc}{url}");
    }
    let mut out = format!("{scheme}:{url}");
    if !query.is_empty() {
        out.push('?');
        out.push_str(&query);
    }
    if !fragment.is_empty() {
        out.push('#');
        out.push_str(&fragment);
    }
    Some(out)
}

/// `;params` of the last path segment.
fn split_params(path: &str) -> (&str, &str) {
    let from = path.rfind('/').unwrap_or(0);
    match path[from..].find(';') {
        Some(i) => (&path[..from + i], &path[from + i + 1..]),
        None => (path, ""),
    }
}

/// The lowercased host (without brackets or credentials) and the port; `None` when the
/// port is not a number in 0..=65535.
fn host_and_port(netloc: &str) -> Option<(String, Option<u32>)> {
    let hostinfo = netloc.rsplit_once('@').map_or(netloc, |(_, h)| h);
    let (host, port) = match hostinfo.split_once('[') {
        Some((_, bracketed)) => {
            let (host, after) = bracketed.split_once(']').unwrap_or((bracketed, ""));
            (host, after.split_once(':').map_or("", |(_, p)| p))
        }
        None => hostinfo.split_once(':').unwrap_or((hostinfo, "")),
    };
    let port = if port.is_empty() {
        None
    } else {
        if !port.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = port.trim_start_matches('0');
        if digits.len() > 5 {
            return None;
        }
        let value: u32 = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
        if value > 65535 {
            return None;
        }
        Some(value)
    };
    Some((host.to_lowercase(), port))
}

/// Python refuses a non-ASCII host whose NFKC form (ignoring the delimiters already
/// there) holds a delimiter: `\u{2100}` would become `a/c`.
fn netloc_survives_nfkc(netloc: &str) -> bool {
    if netloc.is_ascii() {
        return true;
    }
    let bare: String = netloc
        .chars()
        .filter(|c| !matches!(c, '@' | ':' | '#' | '?'))
        .collect();
    let folded: String = bare.nfkc().collect();
    folded == bare || !folded.contains(['/', '?', '#', '@', ':'])
}

/// A bracketed host Python accepts: `vHEX.anything` or an IPv6 address (not IPv4).
fn bracketed_host_ok(host: &str) -> bool {
    if let Some(rest) = host.strip_prefix('v') {
        let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        return hex > 0 && rest[hex..].strip_prefix('.').is_some_and(|r| !r.is_empty());
    }
    ipv6_ok(host)
}

/// Python's `ipaddress.IPv6Address` on a string: hextets of at most four hex digits, one
/// `::`, an IPv4 tail, a `%zone`.
fn ipv6_ok(text: &str) -> bool {
    if text.contains('/') {
        return false;
    }
    let addr = match text.split_once('%') {
        Some((addr, zone)) if !zone.is_empty() && !zone.contains('%') => addr,
        Some(_) => return false,
        None => text,
    };
    if addr.is_empty() {
        return false;
    }
    let mut parts: Vec<&str> = addr.split(':').collect();
    if parts.len() < 3 {
        return false;
    }
    if parts.last().is_some_and(|p| p.contains('.')) {
        if !ipv4_ok(parts.pop().unwrap_or_default()) {
            return false;
        }
        // stands for two hextets, both well formed
        parts.extend(["0", "0"]);
    }
    const HEXTETS: usize = 8;
    if parts.len() > HEXTETS + 1 {
        return false;
    }
    let n = parts.len();
    let mut skip = None;
    for (i, part) in parts.iter().enumerate().take(n - 1).skip(1) {
        if part.is_empty() {
            if skip.is_some() {
                return false;
            }
            skip = Some(i);
        }
    }
    let (hi, lo) = match skip {
        Some(at) => {
            let (mut hi, mut lo) = (at, n - at - 1);
            if parts[0].is_empty() {
                hi -= 1;
                if hi > 0 {
                    return false;
                }
            }
            if parts[n - 1].is_empty() {
                lo -= 1;
                if lo > 0 {
                    return false;
                }
            }
            if HEXTETS < hi + lo + 1 {
                return false;
            }
            (hi, lo)
        }
        None => {
            if n != HEXTETS || parts[0].is_empty() || parts[n - 1].is_empty() {
                return false;
            }
            (n, 0)
        }
    };
    let hextet =
        |p: &&str| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_hexdigit());
    parts[..hi].iter().all(hextet) && parts[n - lo..].iter().all(hextet)
}

/// Python's `ipaddress.IPv4Address` on a string: four decimal octets, no leading zeros.
fn ipv4_ok(text: &str) -> bool {
    let octets: Vec<&str> = text.split('.').collect();
    octets.len() == 4
        && octets.iter().all(|o| {
            !o.is_empty()
                && o.len() <= 3
                && o.bytes().all(|b| b.is_ascii_digit())
                && (*o == "0" || !o.starts_with('0'))
                && o.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// What `int(pair, 16)` makes of two characters: Python takes any Unicode decimal digit
/// as a digit, strips whitespace and allows a sign. `None` where it raises.
fn python_hex_pair(pair: [char; 2]) -> Option<i32> {
    // Python first maps decimal digits to ASCII and whitespace to a space
    let ascii = pair.map(|c| {
        if c.is_ascii() {
            Some(c)
        } else if super::pyspace::is_space(c) {
            Some(' ')
        } else {
            super::pyspace::decimal_value(c).and_then(|d| char::from_digit(d, 10))
        }
    });
    let [Some(a), Some(b)] = ascii else {
        return None;
    };
    let digit = |c: char| c.to_digit(16).map(|d| d as i32);
    let space = |c: char| c == ' ' || super::pyspace::is_space(c);
    match (a, b) {
        (a, b) if digit(a).is_some() && digit(b).is_some() => Some(digit(a)? * 16 + digit(b)?),
        (s, d) if space(s) => digit(d),
        (d, s) if space(s) => digit(d),
        ('+', d) => digit(d),
        ('-', d) => digit(d).map(|v| -v),
        _ => None,
    }
}

/// keep's `_decode_unreserved`: `%XX` of an unreserved character becomes the character,
/// any other `%XX` Python reads as a number gets uppercase digits, the rest stays.
fn decode_unreserved(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '%' && i + 2 < chars.len() {
            let pair = [chars[i + 1], chars[i + 2]];
            // a negative number is no character: Python's chr raises, the `%` stays
            if let Some(value) = python_hex_pair(pair).filter(|v| *v >= 0) {
                let byte = value as u8;
                if UNRESERVED.contains(&byte) {
                    out.push(char::from(byte));
                } else {
                    out.push('%');
                    out.extend(pair.iter().map(char::to_ascii_uppercase));
                }
                i += 3;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// RFC 3986's removal of `.` and `..` segments, as keep writes it.
fn resolve_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "." => {}
            ".." => {
                if out.last().is_some_and(|s| !s.is_empty()) {
                    out.pop();
                }
            }
            _ => out.push(segment),
        }
    }
    let resolved = out.join("/");
    if path.starts_with('/') && !resolved.starts_with('/') {
        format!("/{resolved}")
    } else {
        resolved
    }
}

#[cfg(test)]
mod tests {
    use super::normalize;

    fn n(uri: &str) -> Option<String> {
        normalize(uri)
    }

    #[test]
    fn scheme_and_host_fold_and_default_ports_go() {
        assert_eq!(
            n("HTTP://Example.COM:80/A/b").as_deref(),
            Some("http://example.com/A/b")
        );
        assert_eq!(n("https://x.org:443").as_deref(), Some("https://x.org/"));
        assert_eq!(
            n("https://x.org:0080/").as_deref(),
            Some("https://x.org:80/")
        );
        assert_eq!(n("http://x.org:0080/").as_deref(), Some("http://x.org/"));
        // port 0 is falsy to Python: dropped
        assert_eq!(n("http://x.org:0/").as_deref(), Some("http://x.org/"));
        // an empty port is no port
        assert_eq!(n("http://x.org:/p").as_deref(), Some("http://x.org/p"));
    }

    #[test]
    fn credentials_go_and_brackets_are_lost_with_them() {
        assert_eq!(
            n("http://user:pw@Host.org/").as_deref(),
            Some("http://host.org/")
        );
        // keep rebuilds the host without its brackets
        assert_eq!(
            n("http://[::1]:8080/x").as_deref(),
            Some("http://::1:8080/x")
        );
        assert_eq!(n("http://[v1.fe]/").as_deref(), Some("http://v1.fe/"));
    }

    #[test]
    fn what_python_refuses_leaves_the_value_alone() {
        for bad in [
            "http://x.org:port/",
            "http://x.org:65536/",
            "http://x.org:-1/",
            "http://[::1/",
            "http://x]/",
            "http://[1.2.3.4]/",
            "http://[::1::2]/",
            "http://[12345::]/",
            "http://[v.x]/",
            "http://a\u{2100}b/",
            "http://x.org:1:2/",
        ] {
            assert_eq!(n(bad), None, "{bad}");
        }
        // NFKC that adds no delimiter is fine; the host is lowercased
        assert_eq!(
            n("http://\u{FF21}.org/").as_deref(),
            Some("http://\u{FF41}.org/")
        );
    }

    #[test]
    fn ipv6_forms_python_accepts() {
        for ok in [
            "::",
            "1::",
            "::1",
            "1:2:3:4:5:6:7:8",
            "1::8",
            "::ffff:1.2.3.4",
            "fe80::1%eth0",
        ] {
            assert!(n(&format!("http://[{ok}]/")).is_some(), "{ok}");
        }
        for bad in [
            "1:2:3:4:5:6:7:8:9",
            ":1::2",
            "1::2:",
            "::1.2.3.04",
            "1:2",
            "::%",
            "1:2:3:4:5:6:7::8",
        ] {
            assert_eq!(n(&format!("http://[{bad}]/")), None, "{bad}");
        }
    }

    #[test]
    fn paths_resolve_dots_and_decode_only_unreserved_escapes() {
        assert_eq!(
            n("http://x.org/a/./b/../c").as_deref(),
            Some("http://x.org/a/c")
        );
        assert_eq!(n("http://x.org/..").as_deref(), Some("http://x.org/"));
        assert_eq!(
            n("http://x.org/%7euser/%2f%41").as_deref(),
            Some("http://x.org/~user/%2FA")
        );
        // a `%` Python cannot read as a number stays; at the very end it is too short
        assert_eq!(
            n("http://x.org/%zz%4").as_deref(),
            Some("http://x.org/%zz%4")
        );
        // Python's int() reads Arabic-Indic digits, a sign and a space
        assert_eq!(
            n("http://x.org/%\u{664}\u{661}").as_deref(),
            Some("http://x.org/A")
        );
        assert_eq!(
            n("http://x.org/%+f% 1").as_deref(),
            Some("http://x.org/%+F% 1")
        );
        assert_eq!(n("http://x.org/%-1").as_deref(), Some("http://x.org/%-1"));
        assert_eq!(n("http://x.org/%-0").as_deref(), Some("http://x.org/%-0"));
    }

    #[test]
    fn query_fragment_params_and_empty_parts() {
        assert_eq!(n("http://x.org?").as_deref(), Some("http://x.org/"));
        assert_eq!(
            n("http://x.org/p?q=%61#f%62").as_deref(),
            Some("http://x.org/p?q=a#fb")
        );
        assert_eq!(
            n("http://x.org/a;b/c;d").as_deref(),
            Some("http://x.org/a;b/c;d")
        );
        assert_eq!(n("http://x.org/c;").as_deref(), Some("http://x.org/c"));
        // tabs and line breaks vanish anywhere
        assert_eq!(
            n("http://ex\tam\nple.org/\r").as_deref(),
            Some("http://example.org/")
        );
        // no host: a path starting `//` loses the authority's slashes
        assert_eq!(n("http:///p").as_deref(), Some("http:///p"));
        assert_eq!(n("http:////p").as_deref(), Some("http://p"));
    }
}
