//! "Did you mean": the closest known name to a misspelt one.

/// The candidate closest to `name`, if one is close enough to be a likely typo.
///
/// ```
/// use prompt_runtime::suggest::closest;
/// assert_eq!(closest("preferd", ["name", "preferred"]), Some("preferred"));
/// assert_eq!(closest("weather", ["name", "preferred"]), None);
/// ```
pub fn closest<'a, I>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = name.to_ascii_lowercase();
    // A few edits away, relative to the name's length; a long shared prefix alone
    // (`segment_end`, `segment_preamble`) is not a typo.
    let limit = (name.chars().count() / 3).max(1);
    let length = name.chars().count();
    let most = limit.max(2);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        // An edit changes the length by at most one: names whose lengths differ by more
        // than the edits allowed are skipped before anything is computed.
        .filter(|c| c.chars().count().abs_diff(length) <= most)
        .map(|c| {
            let folded = c.to_ascii_lowercase();
            let distance = strsim::damerau_levenshtein(&lower, &folded);
            // Among names equally close once case is ignored (`preferred`, `Preferred`),
            // prefer the one written the same way.
            let exact = strsim::damerau_levenshtein(name, c);
            (distance, exact, strsim::jaro_winkler(&lower, &folded), c)
        })
        // Or two edits on a short name that still reads alike (`nto` for `note`, but not
        // `name` for `note`).
        .filter(|(distance, _, similarity, _)| {
            *distance <= limit || (*distance <= 2 && *similarity >= 0.8)
        })
        .min_by(|a, b| {
            a.0.cmp(&b.0)
                .then(a.1.cmp(&b.1))
                .then(b.2.total_cmp(&a.2))
                .then_with(|| a.3.cmp(b.3))
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
        assert_eq!(closest("segment", known), None);
        assert_eq!(closest("dya", ["day", "segment_end"]), Some("day"));
        assert_eq!(closest("note", ["name"]), None);
        assert_eq!(closest("nto", ["note", "name"]), Some("note"));
    }
}
