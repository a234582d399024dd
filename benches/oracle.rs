//! minijinja as the Jinja front end's oracle and anchor, set up one way for the benches,
//! the instruction counts and the compiled render's differential test (`difftest/`, which
//! includes this file by path).

/// A minijinja environment with LangAlpha's options (`trim_blocks`, `lstrip_blocks`,
/// `keep_trailing_newline`) and Python's `dict.items()`, which minijinja leaves to its
/// `pycompat` (another crate, not built here): the same, in a few lines.
pub fn environment() -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the options are valid"),
    );
    env.set_unknown_method_callback(|_, value, method, args| {
        if method != "items" || !args.is_empty() || value.kind() != minijinja::value::ValueKind::Map
        {
            return Err(minijinja::Error::from(minijinja::ErrorKind::UnknownMethod));
        }
        let mut pairs = Vec::new();
        for key in value.try_iter()? {
            let item = value.get_item(&key)?;
            pairs.push(minijinja::Value::from(vec![key, item]));
        }
        Ok(minijinja::Value::from(pairs))
    });
    env
}

/// The same values as minijinja's own (its `serde` support is a feature not built here).
pub fn to_minijinja(value: &serde_json::Value) -> minijinja::Value {
    use serde_json::Value as J;
    match value {
        J::Null => minijinja::Value::from(()),
        J::Bool(b) => minijinja::Value::from(*b),
        J::Number(n) => n.as_i64().map_or_else(
            || minijinja::Value::from(n.as_f64().unwrap_or(0.0)),
            minijinja::Value::from,
        ),
        J::String(s) => minijinja::Value::from(s.as_str()),
        J::Array(items) => {
            minijinja::Value::from(items.iter().map(to_minijinja).collect::<Vec<_>>())
        }
        J::Object(map) => minijinja::Value::from(
            map.iter()
                .map(|(k, v)| (k.clone(), to_minijinja(v)))
                .collect::<std::collections::BTreeMap<_, _>>(),
        ),
    }
}
