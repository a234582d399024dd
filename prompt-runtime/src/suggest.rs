//! "Did you mean": the closest known name to a misspelt one.

/// The candidate closest to `name`, if one is close enough to be a likely typo. Every
/// "did you mean" of the language comes from here, so the CLI suggests the same names.
///
/// ```
/// use prompt_runtime::suggest::closest;
///
/// assert_eq!(closest("preferd", ["preferred", "bio"]), Some("preferred"));
/// assert_eq!(closest("weather", ["preferred", "bio"]), None);
/// ```
pub fn closest<'a, I>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = name.to_ascii_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            let folded = strsim::jaro_winkler(&lower, &c.to_ascii_lowercase());
            // Among names equally close once case is ignored (`preferred`, `Preferred`),
            // prefer the one written the same way.
            (folded, strsim::jaro_winkler(name, c), c)
        })
        .filter(|(score, ..)| *score >= 0.8)
        .max_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then_with(|| b.2.cmp(a.2))
        })
        .map(|(.., c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos_and_ignores_strangers() {
        let known = ["preferred", "segment_end", "segment_start", "name"];
        assert_eq!(closest("preferd", known), Some("preferred"));
        assert_eq!(closest("segment_ned", known), Some("segment_end"));
        assert_eq!(
            closest("Preferd", ["preferred", "Preferred"]),
            Some("Preferred")
        );
        assert_eq!(
            closest("preferd", ["Preferred", "preferred"]),
            Some("preferred")
        );
        assert_eq!(closest("weather", known), None);
    }
}
