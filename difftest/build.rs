//! Writes random Jinja templates from the subset the derive compiles, and one
//! `#[derive(Prompt)]` struct per template, for `tests/compiled.rs`.
//!
//! The templates go to `$OUT_DIR/prompts/gen/` (with LangAlpha's environment options in
//! `$OUT_DIR/prompts/promptic.json`), and the derive is pointed at `$OUT_DIR` through
//! `PROMPTIC_MANIFEST_DIR`, so nothing generated lands in the source tree. The generator
//! is seeded (`PROMPTIC_DIFF_SEED`, a number, picks another set; `PROMPTIC_DIFF_COUNT`
//! another size), so a failure is reproduced by the same seed.
//!
//! Each template reads a random selection of these names (the struct gets exactly the
//! fields its template reads, as the derive requires):
//!
//! | name | field type | |
//! |---|---|---|
//! | `s`, `t` | `&str` | |
//! | `n` | `i64` | |
//! | `flag` | `bool` | |
//! | `f` | `f64` | printed as Python prints floats |
//! | `o` | `Option<&str>` | read only under a guard or `default` |
//! | `xs` | `&[String]` | `for x in xs` |
//! | `user` | `&User` | `user.name`, `user.nick` (an `Option`) |
//! | `tools` | `&[Tool]` | `for tool in tools`: `name`, `slow`, `cost` (an `Option`) |
//! | `m` | `&BTreeMap<String, i64>` | `for k, v in m.items()`, `for k in m` (its keys) |
//! | `j` | `&serde_json::Value` | an object: `j.a`, `j.list`, `j.nested.k`, `j.items()` |
//! | `js` | `&[serde_json::Value]` | `for e in js`: `e.name`, `e.k`, `e.on` (which an item may lack) |
//!
//! A template is marked "minijinja-safe" when it avoids what minijinja prints or reads
//! differently from Jinja2 (Python's `True`/`None`/float/list/dict printing, `tojson`'s
//! separators, `items()`), so the test also compares it with minijinja.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// An expression or a condition: its text, the names it reads, whether minijinja renders
/// it as Jinja2 does.
type Piece = (&'static str, &'static [&'static str], bool);

const PRINTED: &[Piece] = &[
    ("s", &["s"], true),
    ("t", &["t"], true),
    ("n", &["n"], true),
    ("s | upper", &["s"], true),
    ("t | lower", &["t"], true),
    ("s | trim", &["s"], true),
    ("s | trim('a')", &["s"], false),
    ("j.a", &["j"], false),
    ("j['list'] | join(',')", &["j"], false),
    ("j.nested", &["j"], false),
    ("j.list[0] + 1", &["j"], false),
    ("j.nested.k", &["j"], false),
    ("j.a | upper", &["j"], false),
    ("j.nested.k | trim", &["j"], false),
    ("o | default('d')", &["o"], true),
    ("o | default(t)", &["o", "t"], true),
    ("s | default('e', true)", &["s"], true),
    ("xs | join(',')", &["xs"], true),
    ("xs | join", &["xs"], true),
    ("xs | length", &["xs"], true),
    ("s | length", &["s"], true),
    ("'lit'", &[], true),
    ("42", &[], true),
    ("-7", &[], true),
    ("user.name", &["user"], true),
    ("user.nick | default('nn')", &["user"], true),
    ("user.name | upper", &["user"], true),
    ("tools | length", &["tools"], true),
    ("m | length", &["m"], true),
    ("f", &["f"], false),
    ("flag", &["flag"], false),
    ("xs", &["xs"], false),
    ("m", &["m"], false),
    ("m | tojson", &["m"], false),
    ("xs | tojson", &["xs"], false),
    ("s | tojson", &["s"], false),
    ("m | tojson(indent=2)", &["m"], false),
    ("(s, n)", &["s", "n"], false),
    ("(xs | length, (t,))", &["xs", "t"], false),
    ("s.split(' ', 1)", &["s"], false),
    ("t.rsplit(none, 1) | join('|')", &["t"], false),
    ("'a' in (s, t)", &["s", "t"], false),
    ("tools | tojson(indent=n)", &["tools", "n"], false),
    ("n > 1", &["n"], false),
    ("o | default(none)", &["o"], false),
    ("user.nick | default(flag)", &["user", "flag"], false),
    ("s == t", &["s", "t"], false),
    ("1.5", &[], false),
    ("s if flag else t", &["s", "flag", "t"], true),
    ("n if n > 1 else 'few'", &["n"], true),
    ("user.nick if user.nick else user.name", &["user"], true),
    ("'on' if flag", &["flag"], false),
    ("user['name']", &["user"], true),
    ("user['nick'] | default('nn')", &["user"], true),
    ("xs[0]", &["xs"], false),
    ("xs[-1] | upper", &["xs"], false),
    ("s[0] | default('-')", &["s"], false),
    ("m['k1'] | default(0)", &["m"], true),
    ("s | title", &["s"], false),
    ("t | capitalize", &["t"], false),
    ("s | replace('a', 'b')", &["s"], false),
    ("'%.2f|%5d' | format(f, n)", &["f", "n"], false),
    ("'%(a)s/%(b)+.1e' | format(a=s, b=f)", &["s", "f"], false),
    ("'%-6s|%x' % (t, n)", &["t", "n"], false),
    ("tools | groupby('slow') | length", &["tools"], false),
    ("xs | first | default('-')", &["xs"], false),
    ("xs | last | default('-')", &["xs"], false),
    ("xs | sort | join(',')", &["xs"], false),
    ("xs | reverse | join", &["xs"], false),
    ("xs | unique | list | length", &["xs"], false),
    ("n | abs", &["n"], false),
    ("f | round(1)", &["f"], false),
    ("s | center(7)", &["s"], false),
    ("m | pprint", &["m"], false),
    ("dict(k=s, n=n)", &["s", "n"], false),
    ("s is filter", &["s"], false),
    ("s.center(9, '*') ~ t.zfill(4)", &["s", "t"], false),
    ("t.splitlines() | length", &["t"], false),
    ("s | wordcount", &["s"], false),
    ("('<b>' ~ s ~ '</b> &amp;') | striptags", &["s"], false),
    ("s | urlencode", &["s"], false),
    ("m | urlencode", &["m"], false),
    ("n | filesizeformat", &["n"], false),
    ("xs | slice(2) | list", &["xs"], false),
    ("m | xmlattr", &["m"], false),
    (
        "tools | map(attribute='name') | join(',')",
        &["tools"],
        false,
    ),
    (
        "tools | selectattr('slow') | map(attribute='name') | join",
        &["tools"],
        false,
    ),
    ("n | string | length", &["n"], false),
    ("xs | batch(2) | list | length", &["xs"], false),
    ("tools | join(', ', attribute='name')", &["tools"], false),
    ("n + 1", &["n"], false),
    ("n * 2 - 1", &["n"], false),
    ("n // 2", &["n"], false),
    ("n % 3", &["n"], false),
    ("f * 2", &["f"], false),
    ("s ~ '-' ~ t", &["s", "t"], false),
    ("s.upper()", &["s"], false),
    ("s.strip('a')", &["s"], false),
    ("s.replace('a', 'x')", &["s"], false),
    ("xs[1:] | join(',')", &["xs"], false),
    ("s[::-1]", &["s"], false),
    ("range(n % 3) | join(',')", &["n"], false),
    ("m.keys() | list | length", &["m"], false),
    ("m.get('k1', 0)", &["m"], false),
    ("{'a': s, 'b': n, 'a': t}.get('a')", &["s", "n", "t"], false),
    (
        "m.get('zz', {'k': xs}).keys() | join(',')",
        &["m", "xs"],
        false,
    ),
    ("user[t] | default('-')", &["user", "t"], false),
    ("xs[n % 2] | default('-')", &["xs", "n"], false),
    ("-n", &["n"], false),
    ("[s, n]", &["s", "n"], false),
    ("[1, 2] | join('-')", &[], false),
    ("s.split('a') | join('|')", &["s"], false),
    ("v1", &[], false),
    ("v2 | string ~ v1", &[], false),
    ("t.split() | length", &["t"], false),
];

const CONDITIONS: &[Piece] = &[
    ("flag", &["flag"], true),
    ("not flag", &["flag"], true),
    ("n > 1", &["n"], true),
    ("n == 2", &["n"], true),
    ("n != 0 and flag", &["n", "flag"], true),
    ("n < 1 or flag", &["n", "flag"], true),
    ("n >= 0 and n <= 2", &["n"], true),
    ("s == 'a'", &["s"], true),
    ("'a' in s", &["s"], true),
    ("'b' not in xs", &["xs"], true),
    ("s", &["s"], true),
    ("xs", &["xs"], true),
    ("o", &["o"], true),
    ("o is defined", &["o"], true),
    ("o is not defined", &["o"], true),
    ("t | default('x') == 'x'", &["t"], true),
    ("xs | length >= 2", &["xs"], true),
    ("(flag or n == 3) and not s", &["flag", "n", "s"], true),
    ("user.nick", &["user"], true),
    ("user.nick is defined", &["user"], true),
    ("user.name == s", &["user", "s"], true),
    ("f > 0.5", &["f"], true),
    ("m", &["m"], true),
    ("'k1' in m", &["m"], true),
    ("tools", &["tools"], true),
    ("tools | length > 1", &["tools"], true),
    ("s or t", &["s", "t"], true),
    ("(s if flag else xs)", &["s", "flag", "xs"], true),
    ("xs[1] == 'b'", &["xs"], true),
    ("s | int > 0", &["s"], false),
    ("xs | select | list", &["xs"], false),
    ("n + 1 > 2", &["n"], false),
    ("s.endswith('a')", &["s"], false),
    ("s in ['a', 'b']", &["s"], false),
    ("n is odd", &["n"], false),
    ("v1 == 'one'", &[], false),
    ("s.startswith('a')", &["s"], false),
    ("n is divisibleby 3", &["n"], false),
    ("s is string and n is number", &["s", "n"], false),
    ("o | default(none) is none", &["o"], false),
    ("user.nick | default(none) is none", &["user"], false),
];

/// What a loop binds, innermost last.
#[derive(Clone, Copy, PartialEq)]
enum Scope {
    Xs,
    Tools,
    Items,
    Keys,
    Js,
}

const IN_XS: (&[Piece], &[Piece]) = (
    &[
        ("x", &[], true),
        ("x | upper", &[], true),
        ("loop.index0", &[], true),
        ("loop.cycle('odd', 'even', x)", &[], false),
        ("loop.previtem | default('^')", &[], false),
        ("loop.nextitem | default('$')", &[], false),
        ("loop.revindex", &[], true),
    ],
    &[
        ("x == 'a'", &[], true),
        ("loop.first", &[], true),
        ("loop.last", &[], true),
    ],
);

const IN_TOOLS: (&[Piece], &[Piece]) = (
    &[
        ("tool.name", &[], true),
        ("tool.name | upper", &[], true),
        ("tool.cost | default('-')", &[], true),
        ("loop.index", &[], true),
        ("loop.length", &[], true),
        ("tool.slow", &[], false),
        ("tool.name if tool.slow else '-'", &[], true),
        ("tool['name']", &[], true),
        ("tool.name | title", &[], false),
        ("tool.name ~ '!'", &[], false),
        ("loop.index * 10", &[], false),
        ("loop.nextitem.name if loop.nextitem else '$'", &[], false),
    ],
    &[
        ("tool.slow", &[], true),
        ("tool.cost is defined", &[], true),
        ("tool.cost | default(0) > 1", &[], true),
        ("loop.last", &[], true),
    ],
);

/// An item of a list of JSON: an object, its `on` under a test or a default.
const IN_JS: (&[Piece], &[Piece]) = (
    &[
        ("e.name", &[], false),
        ("e", &[], false),
        ("e.k", &[], false),
        ("e.name | upper", &[], false),
        ("e.on | default('-')", &[], false),
        ("loop.index", &[], false),
    ],
    &[
        ("e.on", &[], false),
        ("e", &[], false),
        ("e.on is defined", &[], false),
        ("e.name == 'a'", &[], false),
        ("e.on != 'v'", &[], false),
    ],
);

const IN_ITEMS: (&[Piece], &[Piece]) = (
    &[
        ("k", &[], false),
        ("v", &[], false),
        ("loop.index", &[], false),
    ],
    &[("v > 2", &[], false), ("loop.last", &[], false)],
);

const IN_KEYS: (&[Piece], &[Piece]) = (
    &[
        ("k", &[], false),
        ("k | upper", &[], false),
        ("loop.index", &[], false),
    ],
    &[("k == 'k1'", &[], false), ("loop.first", &[], false)],
);

/// The filters of a `{% filter %}` block, and whether minijinja renders them as Jinja2
/// does (the safe ones first).
const FILTER_BLOCKS: &[(&str, bool)] = &[
    ("upper", true),
    ("lower | trim", true),
    ("replace('a', 'b') | upper", true),
    ("trim", true),
    ("default('d', true)", false),
    ("replace('o', v1) | replace(' ', v2 ~ '')", false),
    ("truncate(5, true, '~', 0)", false),
    ("length", false),
];

const TEXT: &[&str] = &["a", "b", " ", "  ", "\n", "\t", "\n  ", "x\n", "é", "—"];

struct Gen {
    state: u64,
    used: BTreeSet<&'static str>,
    safe: bool,
    /// Draw only what minijinja renders as Jinja2 does.
    safe_only: bool,
    scopes: Vec<Scope>,
    /// How many `if` branches (or loop `else`s) enclose the node within its loop or
    /// template: a `{% set %}` is drawn only outside them (the compiled subset).
    branch: usize,
    /// What the template's nodes read that its first lines define: the namespace `ns`,
    /// the macro `m`, the dict `d`.
    defines: [bool; 3],
    /// How many namespaces were made in branches: each has a name of its own.
    made: usize,
}

/// What the first lines of a template define when its nodes read it (see `Gen::defines`).
const DEFINES: [&str; 3] = [
    "{% set ns = namespace(c=0, s='') %}",
    "{% macro m(a, b='-') %}<{{ a }}|{{ b }}>{% endmacro %}",
    "{% set d = {'a': 'x', 'k': [1, 'two', none], 'n': {'x': 2.5, 'y': true}, 'e': {}} %}",
];

/// Reads of the dict `d`.
const DICT_READS: &[&str] = &[
    "{{ d.a }}{{ d['k'][1] }}{{ d.n.x }}|",
    "{% for k2 in d %}{{ k2 }},{% endfor %}",
    "{% for k2, v2 in d.items() %}{{ k2 }}={{ v2 }};{% endfor %}",
    "{{ d }}",
    "{{ d.k | length }}{% if d.n.y %}Y{% endif %}{% if d.e %}E{% endif %}",
    "{{ d.get('a') }}{{ d.missing | default('none') }}",
    "{% for k2 in {'p': 1, 'q': {'r': 2}} %}{{ k2 }}{% endfor %}{{ {'z': none, 'a': [d.e]} }}",
    "{% if flag %}{% set d = {'a': 'y'} %}{% endif %}{{ d.a }}",
];

/// Tuples (entries of `items()` and `dictsort`) and loops that unpack items, with the
/// names they read.
const UNPACKED: &[(&str, &[&str])] = &[
    (
        "{% for pair in m.items() %}{{ pair }}{{ pair[0] }}{{ pair | length }};{% endfor %}",
        &["m"],
    ),
    (
        "{% for k2, v2 in m | dictsort %}{{ k2 }}={{ v2 }};{% endfor %}",
        &["m"],
    ),
    (
        "{{ m | dictsort | first }}{{ (m | dictsort | last)[1] }}",
        &["m"],
    ),
    (
        "{% for a, b in [[1, 'x'], [s, n]] %}{{ a }}:{{ b }};{% endfor %}",
        &["s", "n"],
    ),
    (
        "{% for a, b in [[1, 2, 3], xs] %}{{ a }}{% endfor %}",
        &["xs"],
    ),
    (
        "{% for k2, v2 in j.items() %}{{ k2 }}={{ v2 }};{% endfor %}{% for x2 in j.list %}{{ x2 }},{% endfor %}",
        &["j"],
    ),
];

/// Lists of dicts a filter makes, read as values and looped over.
const FILTERED_DICTS: &[&str] = &[
    "{% for tool in tools | selectattr('slow') %}{{ tool.name }}{% if tool.cost is defined %}${{ tool.cost }}{% endif %};{% endfor %}",
    "{% for tool in tools | sort(attribute='name') %}{{ loop.index }}{{ tool['name'] | upper }}{% endfor %}",
    "{{ tools | sort(attribute='name') | first }}",
    "{{ (tools | rejectattr('slow') | list | last).name | default('-') }}",
];

impl Gen {
    /// splitmix64.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())]
    }

    /// A piece, from the minijinja-safe ones alone in a safe-only template.
    fn pick_piece(&mut self, from: &[Piece]) -> Piece {
        if self.safe_only {
            let safe: Vec<Piece> = from.iter().copied().filter(|p| p.2).collect();
            if !safe.is_empty() {
                return self.pick(&safe);
            }
        }
        self.pick(from)
    }

    fn take(&mut self, piece: Piece) -> &'static str {
        self.used.extend(piece.1.iter().copied());
        self.safe &= piece.2;
        piece.0
    }

    /// A piece from the top level or from the innermost loop's scope.
    fn piece(&mut self, conditions: bool) -> &'static str {
        if let Some(&scope) = self.scopes.last()
            && self.below(2) == 0
        {
            let (printed, tests) = match scope {
                Scope::Xs => IN_XS,
                Scope::Tools => IN_TOOLS,
                Scope::Items => IN_ITEMS,
                Scope::Keys => IN_KEYS,
                Scope::Js => IN_JS,
            };
            let piece = self.pick_piece(if conditions { tests } else { printed });
            return self.take(piece);
        }
        let piece = self.pick_piece(if conditions { CONDITIONS } else { PRINTED });
        self.take(piece)
    }

    fn sign(&mut self) -> &'static str {
        self.pick(&["", "", "-", "+"])
    }

    fn tag(&mut self, body: &str) -> String {
        let (l, r) = (self.sign(), self.sign());
        format!("{{%{l} {body} {r}%}}")
    }

    fn text(&mut self) -> String {
        let n = self.below(4);
        (0..n).map(|_| self.pick(TEXT)).collect()
    }

    fn output(&mut self) -> String {
        let expr = self.piece(false);
        let l = self.pick(&["", "", "-"]);
        let r = self.pick(&["", "", "-"]);
        format!("{{{{{l} {expr} {r}}}}}")
    }

    fn body(&mut self, depth: usize) -> String {
        let n = self.below(4);
        (0..n).map(|_| self.node(depth)).collect()
    }

    /// `{% set %}` of a name with a printed piece, then a read of the name. Not of an
    /// item that may be missing (`xs[0]`): the run-time renderer refuses that before it
    /// renders where it can tell the set is reached, and the compiled render then leaves
    /// the render to it, which the comparison would count as not compiled.
    fn set_node(&mut self) -> String {
        let name = self.pick(&["v1", "v2"]);
        let (used, safe) = (self.used.clone(), self.safe);
        let mut value = self.piece(false);
        while value.contains('[') {
            (self.used, self.safe) = (used.clone(), safe);
            value = self.piece(false);
        }
        let set = self.tag(&format!("set {name} = {value}"));
        let read = self.pick(&[
            "{{ NAME }}|",
            "{% if NAME %}y{% endif %}",
            "{{ NAME | default('-') }}",
        ]);
        format!("{set}{}", read.replace("NAME", name))
    }

    /// A node that reads a namespace, calls a macro, or reads a dict (made by the
    /// template or by a filter): not drawn in a minijinja-safe template.
    fn defined_node(&mut self) -> String {
        self.safe = false;
        match self.below(8) {
            0 => {
                self.defines[0] = true;
                let piece = self.piece(false);
                format!("{{% set ns.c = ns.c + 1 %}}{{% set ns.s = ns.s ~ {piece} ~ ',' %}}")
            }
            1 => {
                self.defines[0] = true;
                "{{ ns.c }}/{{ ns.s }}|".to_owned()
            }
            2 | 3 => {
                self.defines[1] = true;
                let a = self.piece(false);
                match self.below(7) {
                    0 | 1 => format!("{{{{ m({a}) }}}}"),
                    2 => {
                        let b = self.piece(false);
                        format!("{{{{ m({a}, b={b}) }}}}")
                    }
                    // A call inside an expression: the macro's text, as a string.
                    3 => format!("{{{{ m({a}) | upper ~ '|' }}}}"),
                    4 => format!("{{% set v1 = m({a}) %}}{{{{ v1 | length }}}}{{{{ v1 }}}}"),
                    5 => format!(
                        "{{% if m({a}, b='') != '<|>' %}}[{{{{ m(m({a})) }}}}]{{% endif %}}"
                    ),
                    // Calls that `and`, `or` or an inline `if` may not reach.
                    _ => {
                        self.used.extend(["flag", "o"]);
                        format!(
                            "{{{{ (m({a}) if flag else 'no') ~ (o and m(o | upper)) ~ (flag or m(o[0])) }}}}"
                        )
                    }
                }
            }
            4 => {
                self.defines[2] = true;
                let read = self.pick(DICT_READS);
                if read.contains("flag") {
                    self.used.insert("flag");
                }
                read.to_owned()
            }
            5 => {
                self.used.insert("tools");
                self.pick(FILTERED_DICTS).to_owned()
            }
            // A namespace made in a branch and read only there.
            6 => {
                self.made += 1;
                let ns = format!("nb{}", self.made);
                let (condition, piece) = (self.piece(true), self.piece(false));
                format!(
                    "{{% if {condition} %}}{{% set {ns} = namespace(c=0, s='') %}}{{% for x2 in [1, 2] %}}{{% set {ns}.c = {ns}.c + 1 %}}{{% set {ns}.s = {ns}.s ~ {piece} %}}{{% endfor %}}{{{{ {ns}.c }}}}:{{{{ {ns}.s }}}}|{{% endif %}}"
                )
            }
            _ => {
                let (text, names) = self.pick(UNPACKED);
                self.used.extend(names.iter().copied());
                text.to_owned()
            }
        }
    }

    fn node(&mut self, depth: usize) -> String {
        if self.below(8) == 0 {
            return self.set_node();
        }
        if !self.safe_only && self.below(8) == 0 {
            return self.defined_node();
        }
        let choice = if depth == 0 {
            self.below(6)
        } else {
            self.below(13)
        };
        match choice {
            0..=1 => self.text(),
            2..=3 => self.output(),
            4 => {
                let (l, r) = (self.sign(), self.pick(&["", "-"]));
                format!("{{#{l} note {r}#}}")
            }
            5 => match self.below(5) {
                0 => {
                    self.used.insert("o");
                    "{% if o %}[{{ o }}]{% endif %}".to_owned()
                }
                1 => {
                    self.used.insert("o");
                    "{% if o is defined %}({{ o | upper }}){% endif %}".to_owned()
                }
                2 if self.scopes.last() == Some(&Scope::Tools) => {
                    "{% if tool.cost is defined %}${{ tool.cost }}{% endif %}".to_owned()
                }
                3 => {
                    self.used.extend(["s", "flag"]);
                    "{% include 'gen/part_a.md.j2' %}".to_owned()
                }
                _ => {
                    self.used.extend(["s", "flag", "xs"]);
                    self.tag("include \"gen/part_b.md.j2\"")
                }
            },
            6..=8 => {
                self.branch += 1;
                let condition = self.piece(true);
                let open = self.tag(&format!("if {condition}"));
                let then = self.body(depth - 1);
                let mut out = format!("{open}{then}");
                if self.below(3) == 0 {
                    let condition = self.piece(true);
                    let elif = self.tag(&format!("elif {condition}"));
                    let body = self.body(depth - 1);
                    out.push_str(&elif);
                    out.push_str(&body);
                }
                if self.below(2) == 0 {
                    let els = self.tag("else");
                    let body = self.body(depth - 1);
                    out.push_str(&els);
                    out.push_str(&body);
                }
                out.push_str(&self.tag("endif"));
                self.branch -= 1;
                out
            }
            9 => self.filter_block(depth),
            _ => self.for_loop(depth),
        }
    }

    /// `{% filter %}` around a body, with filters that give text and, now and then, one
    /// that does not (Jinja2 refuses it; minijinja prints it, so not a safe one); or a
    /// block `{% set %}` with the same filters or none.
    fn filter_block(&mut self, depth: usize) -> String {
        let (filters, safe) = if self.safe_only {
            self.pick(&FILTER_BLOCKS[..4])
        } else {
            self.pick(FILTER_BLOCKS)
        };
        self.safe &= safe;
        // A `with` now and then: a name bound to a value for its body, read there.
        if self.below(4) == 0 {
            let value = self.piece(false);
            let open = self.tag(&format!("with w = {value}"));
            let body = self.body(depth - 1);
            let close = self.tag("endwith");
            return format!("{open}[{{{{ w }}}}]{body}{close}");
        }
        // A block `set` now and then: the same body and filters, its value bound and read.
        if self.below(3) == 0 {
            let name = self.pick(&["v1", "v2"]);
            let filters = if self.below(2) == 0 {
                String::new()
            } else {
                format!(" | {filters}")
            };
            let open = self.tag(&format!("set {name}{filters}"));
            let body = self.body(depth - 1);
            let close = self.tag("endset");
            let read = self.pick(&["{{ NAME }}|", "{% if NAME %}y{% endif %}"]);
            return format!("{open}{body}{close}{}", read.replace("NAME", name));
        }
        let open = self.tag(&format!("filter {filters}"));
        let body = self.body(depth - 1);
        let close = self.tag("endfilter");
        format!("{open}{body}{close}")
    }

    fn for_loop(&mut self, depth: usize) -> String {
        let kinds = if self.safe_only { 2 } else { 5 };
        let (scope, head): (Scope, String) = match self.below(kinds) {
            0 => {
                self.used.insert("xs");
                let filter = self.pick(&["", "", " if x != 'b'", " if x"]);
                (Scope::Xs, format!("for x in xs{filter}"))
            }
            1 => {
                self.used.insert("tools");
                let filter = self.pick(&["", "", " if not tool.slow", " if tool.cost is defined"]);
                (Scope::Tools, format!("for tool in tools{filter}"))
            }
            2 => {
                self.used.insert("m");
                self.safe = false;
                let filter = self.pick(&["", " if v > 1"]);
                (Scope::Items, format!("for k, v in m.items(){filter}"))
            }
            3 => {
                self.used.insert("m");
                self.safe = false;
                let filter = self.pick(&["", " if k != 'k1'"]);
                (Scope::Keys, format!("for k in m{filter}"))
            }
            _ => {
                self.used.insert("js");
                self.safe = false;
                let filter = self.pick(&["", " if e.on", " if e.name is defined"]);
                (Scope::Js, format!("for e in js{filter}"))
            }
        };
        let open = self.tag(&head);
        self.scopes.push(scope);
        let branch = std::mem::take(&mut self.branch);
        let mut body = self.body(depth - 1);
        self.branch = branch;
        // Every loop prints its variable and the loop's state at least once.
        let anchor = self.piece(false);
        let _ = write!(body, "{{{{ {anchor} }}}}|");
        self.scopes.pop();
        let mut out = format!("{open}{body}");
        if self.below(3) == 0 {
            let els = self.tag("else");
            self.branch += 1;
            let other = self.body(depth - 1);
            self.branch -= 1;
            out.push_str(&els);
            out.push_str(&other);
        }
        out.push_str(&self.tag("endfor"));
        out
    }
}

fn field(name: &str) -> &'static str {
    match name {
        "s" | "t" => "&'a str",
        "n" => "i64",
        "flag" => "bool",
        "f" => "f64",
        "o" => "::core::option::Option<&'a str>",
        "xs" => "&'a [String]",
        "user" => "&'a User",
        "tools" => "&'a [Tool]",
        "j" => "&'a ::serde_json::Value",
        "js" => "&'a [::serde_json::Value]",
        _ => "&'a ::std::collections::BTreeMap<String, i64>",
    }
}

fn value(name: &str) -> &'static str {
    match name {
        "s" => "&p.s",
        "t" => "&p.t",
        "n" => "p.n",
        "flag" => "p.flag",
        "f" => "p.f",
        "o" => "p.o.as_deref()",
        "xs" => "&p.xs",
        "user" => "&p.user",
        "tools" => "&p.tools",
        "j" => "&p.j",
        "js" => "&p.js",
        _ => "&p.m",
    }
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PROMPTIC_DIFF_SEED");
    println!("cargo::rerun-if-env-changed=PROMPTIC_DIFF_COUNT");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out);
    const SEED: u64 = 0x5eed_2027;
    const COUNT: usize = 64;
    let seed = std::env::var("PROMPTIC_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEED);
    let count = std::env::var("PROMPTIC_DIFF_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(COUNT);
    let dir = out.join("prompts/gen");
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    std::fs::write(
        out.join("prompts/promptic.json"),
        r#"{ "jinja": { "trim_blocks": true, "lstrip_blocks": true, "keep_trailing_newline": true } }"#,
    )
    .expect("OUT_DIR is writable");
    std::fs::write(
        dir.join("part_a.md.j2"),
        "{% set v1 = s | upper %}[A {{ v1 }}{% if flag %}!{% endif %}]\n",
    )
    .expect("OUT_DIR is writable");
    std::fs::write(
        dir.join("part_b.md.j2"),
        "{% for x in xs %}<{{ x }}>{% endfor %}\n{% include 'gen/part_a.md.j2' %}",
    )
    .expect("OUT_DIR is writable");

    let mut code = String::new();
    let mut table = String::from("pub const TEMPLATES: &[(&str, bool)] = &[\n");
    let mut dispatch = String::from(
        "pub fn render(i: usize, p: &Pool) -> (Option<String>, Result<String, String>) {\n    match i {\n",
    );
    let mut generator = Gen {
        state: seed,
        used: BTreeSet::new(),
        safe: true,
        safe_only: false,
        scopes: Vec::new(),
        branch: 0,
        defines: [false; 3],
        made: 0,
    };
    for i in 0..count {
        generator.used.clear();
        generator.safe = true;
        generator.safe_only = i % 2 == 0;
        generator.defines = [false; 3];
        // `v1` and `v2` are set first, so that every read of them, before or after a
        // `{% set %}` of them in a branch or a loop, reads a name that is there.
        let mut text = String::from("{% set v1 = 'one' %}{% set v2 = 2 -%}\n");
        let mut nodes = String::new();
        while generator.used.is_empty() {
            let n = 1 + generator.below(5);
            for _ in 0..n {
                nodes.push_str(&generator.node(3));
            }
        }
        for (define, used) in DEFINES.iter().zip(generator.defines) {
            if used {
                text.push_str(define);
            }
        }
        text.push_str(&nodes);
        text.push_str(generator.pick(&["", "\n", "\n\n", " \n"]));
        let name = format!("t{i:03}");
        std::fs::write(dir.join(format!("{name}.md.j2")), &text).expect("OUT_DIR is writable");
        let ty = format!("T{i:03}");
        let fields: String = generator
            .used
            .iter()
            .map(|f| format!("    pub {f}: {},\n", field(f)))
            .collect();
        let inits: String = generator
            .used
            .iter()
            .map(|f| format!("{f}: {}, ", value(f)))
            .collect();
        let lifetime = if fields.contains("'a") { "<'a>" } else { "" };
        let _ = writeln!(
            code,
            "#[derive(promptic::Prompt)]\n#[prompt(\"gen/{name}\")]\npub struct {ty}{lifetime} {{\n{fields}}}\n"
        );
        let _ = writeln!(table, "    (\"gen/{name}.md.j2\", {}),", generator.safe);
        let _ = writeln!(
            dispatch,
            "        {i} => {{ let v = {ty} {{ {inits}}}; (v.__promptic_compiled(), v.render().map(|c| c.text).map_err(|e| e.to_string())) }}"
        );
    }
    table.push_str("];\n");
    // Whether this is the set CI draws: the coverage test holds it to the rarer
    // constructs, which another seed's set may draw fewer of.
    let _ = writeln!(
        table,
        "pub const DEFAULT_SET: bool = {};",
        seed == SEED && count == COUNT
    );
    dispatch.push_str("        _ => unreachable!(\"no template {i}\"),\n    }\n}\n");
    code.push_str(&table);
    code.push_str(&dispatch);
    std::fs::write(out.join("generated.rs"), code).expect("OUT_DIR is writable");
    println!("cargo::rustc-env=PROMPTIC_MANIFEST_DIR={}", out.display());
}
