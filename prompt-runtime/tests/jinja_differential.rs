//! The Jinja front end against minijinja: random templates from the supported subset,
//! rendered with random values and random environment options, must give the same bytes.
//!
//! Jinja2 is the reference; minijinja stands in for it here because it runs in `cargo
//! test`. Where the two differ, the generator keeps out of the difference, and the
//! Jinja2-rendered cases in `tests/jinja2/cases.rs` cover it instead:
//! - printing `True`/`False`/`None`, floats, lists and dicts: Jinja2 prints Python's
//!   `str()` (`True`, `['a']`), minijinja its own (`true`, `["a"]`);
//! - `tojson`: Jinja2 writes `", "` and `": "` between items, minijinja nothing;
//! - a value that is not defined: promptic refuses to print it where both print nothing,
//!   so the generator prints only names it gives or ones under `default`;
//! - `.startswith(…)`, `.split(…)` and `.items()`: minijinja has no methods on strings and
//!   maps without its `pycompat` add-on (another crate), so they are left to the Jinja2
//!   cases;
//! - `title`: minijinja starts a word after any character that is not a letter or digit,
//!   Jinja2 only after spaces, `-` and opening brackets;
//! - floats from `/` and the generator filters printed whole: the printing differs as
//!   above;
//! - dict literals printed whole: as above, and minijinja's keys may be any value, where
//!   promptic's are strings, so the generator keys them by strings only;
//! - blocks and macros: each generated template may put its first part in a block, a
//!   macro (called twice) or a block of a child of a fixed parent; never a block inside a
//!   loop, which promptic refuses unless `scoped`.

use prompt_runtime::SourceFile;
use prompt_runtime::formats::jinja::{Options, Templates};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// The values every template is rendered with.
#[derive(Clone, Debug)]
struct Values {
    s: String,
    t: String,
    n: i64,
    flag: bool,
    xs: Vec<String>,
}

impl Values {
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "s": self.s, "t": self.t, "n": self.n, "flag": self.flag, "xs": self.xs,
        })
    }

    fn minijinja(&self) -> minijinja::Value {
        let mut map = BTreeMap::new();
        map.insert("s", minijinja::Value::from(self.s.as_str()));
        map.insert("t", minijinja::Value::from(self.t.as_str()));
        map.insert("n", minijinja::Value::from(self.n));
        map.insert("flag", minijinja::Value::from(self.flag));
        let xs: Vec<minijinja::Value> = self
            .xs
            .iter()
            .map(|x| minijinja::Value::from(x.as_str()))
            .collect();
        map.insert("xs", minijinja::Value::from(xs));
        minijinja::Value::from(map)
    }
}

fn values() -> impl Strategy<Value = Values> {
    let word = prop::sample::select(vec!["", "a", " b ", "Ab", "a,b", "x y"]);
    (
        word.clone(),
        word,
        0i64..4,
        any::<bool>(),
        prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 0..4),
    )
        .prop_map(|(s, t, n, flag, xs)| Values {
            s: s.to_owned(),
            t: t.to_owned(),
            n,
            flag,
            xs: xs.into_iter().map(str::to_owned).collect(),
        })
}

/// Text between tags: the whitespace cases are what matter most.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["a", "b", " ", "  ", "\n", "\t", "\n  ", "x\n"]),
        0..4,
    )
    .prop_map(|parts| parts.concat())
}

/// An opening or closing delimiter's whitespace modifier.
fn sign() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", "-", "+"])
}

fn printed() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "s",
        "t",
        "n",
        "s | upper",
        "s | lower",
        "s | trim",
        "t | default('d')",
        "missing | default('m')",
        "missing | default(t)",
        "s | default('e', true)",
        "xs | join(',')",
        "xs | join",
        "xs | length",
        "s | length",
        "xs[0] | default('none')",
        "'lit'",
        "42",
        "-3",
        "n + 1",
        "n * 2 - 1",
        "n // 2",
        "n % 3",
        "n ** 2",
        "-n",
        "s ~ t ~ n",
        "s | capitalize",
        "s[1:]",
        "s[::-1]",
        "xs[:2] | join('|')",
        "xs | first | default('none')",
        "xs | last | default('z')",
        "xs | sort | join",
        "xs | reverse | join",
        "xs | unique | join('+')",
        "'y' if flag else 'n'",
        "s | replace('a', 'A')",
        "n | string ~ '!'",
        "range(n) | join(',')",
        "{'a': s, 'b': n}.a",
        "{'k': n, 'j': 1,}['k'] + 1",
        "{'a': 1, 'b': 2, 'a': 3} | length",
        "{'x': xs, 'y': {}}.x | join('-')",
        "{t: n}[t]",
        "'b' in {'a': 1, 'b': flag}",
    ])
    .prop_map(str::to_owned)
}

fn condition() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "flag",
        "not flag",
        "n > 1",
        "n == 2",
        "n != 0 and flag",
        "n < 1 or flag",
        "s == 'a'",
        "'a' in s",
        "'b' not in xs",
        "s",
        "xs",
        "missing is defined",
        "missing is not defined",
        "s is none",
        "t | default('x') == 'x'",
        "xs | length >= 2",
        "(flag or n == 3) and not s",
        "n is odd",
        "n is even",
        "n is divisibleby 2",
        "s is string",
        "n is number",
        "n + 1 > 2",
    ])
    .prop_map(str::to_owned)
}

fn output() -> impl Strategy<Value = String> {
    (sign(), printed(), sign()).prop_map(|(l, e, r)| {
        let l = if l == "+" { "" } else { l };
        let r = if r == "+" { "" } else { r };
        format!("{{{{{l} {e} {r}}}}}")
    })
}

fn tag(body: String) -> impl Strategy<Value = String> {
    (sign(), sign()).prop_map(move |(l, r)| format!("{{%{l} {body} {r}%}}"))
}

fn template() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => text(),
        3 => output(),
        1 => (sign(), sign()).prop_map(|(l, r)| {
            let r = if r == "+" { "" } else { r };
            format!("{{#{l} note {r}#}}")
        }),
        1 => Just("{% raw %} {{ kept }} {% endraw %}".to_owned()),
        1 => (tag("set v = s | upper".into()), text()).prop_map(|(set, after)| format!("{set}{after}{{{{ v }}}}")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let body = prop::collection::vec(inner, 0..4).prop_map(|parts| parts.concat());
        prop_oneof![
            (
                prop::sample::select(vec!["upper", "trim", "lower | replace('a', 'o')", "trim | capitalize"]),
                body.clone(),
            )
                .prop_flat_map(|(filters, inside)| {
                    (tag(format!("filter {filters}")), tag("endfilter".into()))
                        .prop_map(move |(open, end)| format!("{open}{inside}{end}"))
                }),
            (condition(), body.clone(), prop::option::of(body.clone()))
                .prop_flat_map(|(cond, then, otherwise)| {
                    (tag(format!("if {cond}")), tag("else".into()), tag("endif".into()))
                        .prop_map(move |(open, els, end)| match &otherwise {
                            Some(o) => format!("{open}{then}{els}{o}{end}"),
                            None => format!("{open}{then}{end}"),
                        })
                }),
            (
                prop::sample::select(vec!["", " if x != 'b'", " if loop_ok"]),
                body.clone(),
                prop::option::of(body),
            )
                .prop_flat_map(|(filter, each, otherwise)| {
                    let filter = if filter == " if loop_ok" { " if x" } else { filter };
                    (tag(format!("for x in xs{filter}")), tag("else".into()), tag("endfor".into()))
                        .prop_map(move |(open, els, end)| {
                            let each = format!("{each}{{{{ x }}}}{{{{ loop.index }}}}/{{{{ loop.length }}}}{{% if loop.first %}}F{{% endif %}}{{% if loop.last %}}L{{% endif %}}");
                            match &otherwise {
                                Some(o) => format!("{open}{each}{els}{o}{end}"),
                                None => format!("{open}{each}{end}"),
                            }
                        })
                }),
        ]
    })
    .prop_map(|t| t)
    .boxed()
}

/// The parent template a generated one may extend: its block around a text of its own.
const BASE: &str =
    "<{% block main %}base {{ s }}{% endblock %}>\n{% block tail -%} end {%- endblock %}";

/// A template: parts one after another, or the first of them in a block, in a macro
/// called twice, or in a block of a template that extends [`BASE`] (with `super()`).
fn sequence() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(template(), 1..5),
        prop::sample::select(vec!["", "\n", "\n\n", " \n"]),
        0..5u8,
    )
        .prop_map(|(parts, end, shape)| {
            let (first, rest) = (&parts[0], parts[1..].concat());
            let body = match shape {
                1 => format!("{{% block main %}}{first}{{% endblock %}}{rest}"),
                2 => format!(
                    "{{% macro m(a, b='-') %}}{first}[{{{{ a }}}}{{{{ b }}}}]{{% endmacro %}}{rest}{{{{ m(s) }}}}{{{{ m(t, b=s) }}}}"
                ),
                3 => format!(
                    "{{% extends 'base.j2' %}}\n{{% block main %}}{first}{{{{ super() }}}}{{% endblock %}}{{% block tail %}}{rest}{{% endblock %}}"
                ),
                _ => parts.concat(),
            };
            body + end
        })
}

fn ours(template: &str, options: Options, values: &Values) -> Result<String, String> {
    let templates = Templates::load("t.j2", options, &mut |name: &str| {
        Ok(match name {
            "base.j2" => SourceFile::new("base.j2", BASE),
            _ => SourceFile::new("t.j2", template),
        })
    })
    .map_err(|e| e.0[0].to_string())?;
    templates
        .render("t.j2", &values.json())
        .map_err(|e| e.to_string())
}

fn theirs(template: &str, options: Options, values: &Values) -> Result<String, String> {
    let mut env = minijinja::Environment::new();
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(options.trim_blocks)
        .lstrip_blocks(options.lstrip_blocks)
        .keep_trailing_newline(options.keep_trailing_newline)
        .build()
        .map_err(|e| e.to_string())?;
    env.set_syntax(syntax);
    env.add_template("t.j2", template)
        .map_err(|e| e.to_string())?;
    env.add_template("base.j2", BASE)
        .map_err(|e| e.to_string())?;
    let tmpl = env.get_template("t.j2").map_err(|e| e.to_string())?;
    tmpl.render(values.minijinja()).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn renders_as_minijinja(
        template in sequence(),
        values in values(),
        trim_blocks: bool,
        lstrip_blocks: bool,
        keep_trailing_newline: bool,
    ) {
        let options = Options { trim_blocks, lstrip_blocks, keep_trailing_newline };
        let expected = theirs(&template, options, &values);
        prop_assume!(expected.is_ok(), "minijinja refused it: {:?}", expected);
        prop_assert_eq!(ours(&template, options, &values), expected, "template {:?}", template);
    }
}
