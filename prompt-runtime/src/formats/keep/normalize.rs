//! keep's normalization of a document's tag values before rules compare them.

use super::{http_uri, pyspace};
use unicode_normalization::UnicodeNormalization;

/// A tag value as keep compares it: stripped of Python's whitespace, in Unicode NFC, and,
/// when it starts with `http://` or `https://` (any case), in keep's canonical URL form
/// (lowercase scheme and host, no credentials or default port, `.` segments resolved,
/// unreserved `%XX` decoded). A rule's own value is compared as written.
///
/// ```
/// use promptic::formats::keep::normalize_tag_value;
///
/// assert_eq!(normalize_tag_value(" paper\u{a0}"), "paper");
/// assert_eq!(normalize_tag_value("Cafe\u{301}"), "Café");
/// assert_eq!(normalize_tag_value("HTTPS://Example.com:443/a/../b"), "https://example.com/b");
/// ```
pub fn normalize_tag_value(value: &str) -> String {
    let value: String = pyspace::strip(value).nfc().collect();
    let prefix: String = value
        .chars()
        .take(8)
        .collect::<String>()
        .to_ascii_lowercase();
    if (prefix.starts_with("http://") || prefix.starts_with("https://"))
        && let Some(canonical) = http_uri::normalize(&value)
    {
        return canonical;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::normalize_tag_value as n;

    #[test]
    fn values_are_stripped_and_composed_but_keep_inner_space() {
        assert_eq!(n("\u{1f} meeting notes \u{3000}"), "meeting notes");
        assert_eq!(n("e\u{301}"), "\u{e9}");
        assert_eq!(n(""), "");
    }

    #[test]
    fn only_http_urls_are_canonicalized() {
        assert_eq!(n("  Http://A.org  "), "http://a.org/");
        assert_eq!(n("ftp://A.org"), "ftp://A.org");
        assert_eq!(n("httpx://A.org"), "httpx://A.org");
        // a URL Python refuses stays as stripped
        assert_eq!(n(" http://a.org:99999/ "), "http://a.org:99999/");
    }
}
