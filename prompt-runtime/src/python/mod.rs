//! Python `string.Template.safe_substitute`, byte for byte.

use crate::parse::lexer::{Token, tokenize};
use std::collections::HashMap;

/// Returns exactly what CPython 3.11's `string.Template(text).safe_substitute(vars)`
/// returns: `$name` and `${name}` are replaced when `vars` has the name and left as
/// written when it does not, `$$` becomes `$`, and any other `$` stays. Values are
/// inserted as they are and never scanned again.
///
/// This runs existing solstone-style prompt corpora unchanged; compiled prompts use the
/// strict checks instead.
///
/// ```
/// use std::collections::HashMap;
///
/// let vars = HashMap::from([("day".to_owned(), "Friday".to_owned())]);
/// assert_eq!(
///     promptic::safe_substitute("$day costs $$5, ${day}! $missing ${ x }", &vars),
///     "Friday costs $5, Friday! $missing ${ x }"
/// );
/// ```
pub fn safe_substitute(text: &str, vars: &HashMap<String, String>) -> String {
    let tokens = tokenize(text, 0);
    let piece = |token: &Token| -> &str {
        match token {
            Token::Text(span) | Token::InvalidBrace(span) => &text[span.clone()],
            Token::Escape(_) => "$",
            Token::Placeholder { span, name, .. } => vars
                .get(&text[name.clone()])
                .map_or(&text[span.clone()], String::as_str),
        }
    };
    let len = tokens.iter().map(|t| piece(t).len()).sum();
    let mut out = String::with_capacity(len);
    for token in &tokens {
        out.push_str(piece(token));
    }
    out
}

mod html_entities;
pub(crate) mod markup;
pub(crate) mod space;
