//! Python's `fnmatch.fnmatch` on POSIX, which keep applies to a prompt doc's `scope`: `*`
//! matches any run of characters (`/` and line breaks included), `?` any one, `[...]` a
//! class (`!` negates; `-` ranges as Python's `fnmatch.translate` builds them, an empty
//! range dropped), anything else itself; case counts; the whole name must match.
//!
//! Matching takes about (name length + 1) × (pattern length + 1) steps at most and no recursion,
//! whatever the input (keep itself bounds an id at 1,024 characters and a tag value at
//! 4,096).
//!
//! (The `globset` crate is a different language: its `*` stops at `/`, it knows `**` and
//! `{a,b}`, and it reads `\` as an escape; so the few rules are written here.)

/// One piece of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Star,
    Any,
    Char(char),
    Class {
        negated: bool,
        items: Vec<(char, char)>,
    },
    Never,
}

/// The pattern's pieces, as `fnmatch.translate` reads them.
fn pieces(pattern: &str) -> Vec<Piece> {
    let pat: Vec<char> = pattern.chars().collect();
    let n = pat.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = pat[i];
        i += 1;
        match c {
            '*' => {
                if out.last() != Some(&Piece::Star) {
                    out.push(Piece::Star);
                }
            }
            '?' => out.push(Piece::Any),
            '[' => {
                let mut j = i;
                if j < n && pat[j] == '!' {
                    j += 1;
                }
                if j < n && pat[j] == ']' {
                    j += 1;
                }
                while j < n && pat[j] != ']' {
                    j += 1;
                }
                if j >= n {
                    out.push(Piece::Char('['));
                    continue;
                }
                out.push(class(&pat, i, j));
                i = j + 1;
            }
            c => out.push(Piece::Char(c)),
        }
    }
    out
}

/// The class `pat[start..end]` (between `[` and `]`).
fn class(pat: &[char], start: usize, end: usize) -> Piece {
    let stuff = &pat[start..end];
    // The chunks between range hyphens, as translate finds them: after a range, the
    // search for the next `-` resumes two characters on.
    let chunks: Vec<Vec<char>> = if !stuff.contains(&'-') {
        vec![stuff.to_vec()]
    } else {
        let mut chunks: Vec<Vec<char>> = Vec::new();
        let mut i = start;
        let mut k = if pat[start] == '!' {
            start + 2
        } else {
            start + 1
        };
        while let Some(found) = (k..end).find(|&at| pat[at] == '-') {
            chunks.push(pat[i..found].to_vec());
            i = found + 1;
            k = found + 3;
        }
        let last = pat[i.min(end)..end].to_vec();
        if last.is_empty() {
            if let Some(prev) = chunks.last_mut() {
                prev.push('-');
            }
        } else {
            chunks.push(last);
        }
        // a range whose ends are reversed is dropped, with its hyphen
        let mut k = chunks.len();
        while k > 1 {
            k -= 1;
            let (Some(&a), Some(&b)) = (chunks[k - 1].last(), chunks[k].first()) else {
                continue;
            };
            if a > b {
                let tail: Vec<char> = chunks[k][1..].to_vec();
                chunks[k - 1].pop();
                chunks[k - 1].extend(tail);
                chunks.remove(k);
            }
        }
        chunks
    };
    // The class's text, each character literal except the hyphens between chunks.
    let mut text: Vec<(char, bool)> = Vec::new();
    for (ci, chunk) in chunks.iter().enumerate() {
        if ci > 0 {
            text.push(('-', true));
        }
        text.extend(chunk.iter().map(|&c| (c, false)));
    }
    if text.is_empty() {
        return Piece::Never;
    }
    if text.len() == 1 && text[0] == ('!', false) {
        return Piece::Any;
    }
    let negated = text[0] == ('!', false);
    let body = if negated { &text[1..] } else { &text[..] };
    // Python's regex reads the class: an item, then `-` and an item is a range.
    let mut items = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let lo = body[at].0;
        if body.get(at + 1).is_some_and(|&(c, op)| c == '-' && op) {
            match body.get(at + 2) {
                Some(&(hi, _)) => {
                    if hi < lo {
                        // Python's regex would refuse the pattern; it matches nothing
                        return Piece::Never;
                    }
                    items.push((lo, hi));
                    at += 3;
                }
                None => {
                    items.push((lo, lo));
                    items.push(('-', '-'));
                    at += 2;
                }
            }
        } else {
            items.push((lo, lo));
            at += 1;
        }
    }
    Piece::Class { negated, items }
}

fn matches_one(piece: &Piece, c: char) -> bool {
    match piece {
        Piece::Any => true,
        Piece::Char(p) => *p == c,
        Piece::Class { negated, items } => {
            items.iter().any(|&(lo, hi)| (lo..=hi).contains(&c)) != *negated
        }
        Piece::Star | Piece::Never => false,
    }
}

/// True when `name` matches `pattern` as Python's `fnmatch.fnmatch` says on POSIX.
pub(crate) fn fnmatch(name: &str, pattern: &str) -> bool {
    let pieces = pieces(pattern);
    let name: Vec<char> = name.chars().collect();
    // one-character pieces and stars: match greedily, on a mismatch let the last star
    // take one more character
    let (mut p, mut c) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while c < name.len() {
        if p < pieces.len() && pieces[p] == Piece::Star {
            star = Some((p, c));
            p += 1;
        } else if p < pieces.len() && matches_one(&pieces[p], name[c]) {
            p += 1;
            c += 1;
        } else if let Some((sp, sc)) = star {
            p = sp + 1;
            c = sc + 1;
            star = Some((sp, sc + 1));
        } else {
            return false;
        }
    }
    pieces[p..].iter().all(|piece| *piece == Piece::Star)
}

#[cfg(test)]
mod tests {
    use super::fnmatch;

    #[test]
    fn stars_cross_slashes_and_line_breaks() {
        assert!(fnmatch("alice@example.com", "*@*"));
        assert!(fnmatch("https://x.org/a/b", "https://*"));
        assert!(fnmatch("a\nb", "a*b"));
        assert!(fnmatch("", "*"));
        assert!(!fnmatch("note", "*@*"));
        assert!(fnmatch("abc", "a?c"));
        assert!(!fnmatch("ac", "a?c"));
        assert!(!fnmatch("Note", "note"));
        assert!(fnmatch("aXbXc", "*X*X*"));
        assert!(!fnmatch("abc", "ab"));
    }

    #[test]
    fn a_pattern_built_to_backtrack_ends() {
        // keep's largest: an id of 1,024 characters, a scope of 4,096
        let name = "a".repeat(1024);
        let pattern = format!("{}b", "*a".repeat(2047));
        assert!(!fnmatch(&name, &pattern));
        assert!(fnmatch(&name, &"*a".repeat(1024)));
    }

    #[test]
    fn classes_as_python_builds_them() {
        assert!(fnmatch("b", "[abc]"));
        assert!(!fnmatch("d", "[abc]"));
        assert!(fnmatch("d", "[!abc]"));
        assert!(fnmatch("m", "[a-z]"));
        assert!(fnmatch("]", "[]]"));
        assert!(!fnmatch("]", "[!]x]"));
        assert!(fnmatch("y", "[!]x]"));
        // an unclosed `[` is itself
        assert!(fnmatch("[a", "[a"));
        // `-` at an end is literal; a reversed range is dropped
        assert!(fnmatch("-", "[a-]"));
        assert!(!fnmatch("m", "[z-a]"));
        assert!(fnmatch("-", "[a-c-e]") && fnmatch("e", "[a-c-e]") && !fnmatch("d", "[a-c-e]"));
        // a backslash is an ordinary character
        assert!(fnmatch("\\", "[\\]"));
        assert!(fnmatch("a\\b", "a\\b"));
        // `[!]]` is "not `]`"
        assert!(fnmatch("x", "[!]]") && !fnmatch("]", "[!]]"));
    }
}
