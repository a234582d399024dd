//! The runtime's top-level modules form layers: a module uses only modules of the layers
//! below it, so the language core sits at the bottom and no two modules need each other.
//!
//! The test reads the sources of `src/`, finds every `crate::…` path each top-level module
//! names in its code (comments, strings and `#[cfg(test)]` items left out: a unit test may
//! drive its module through the layers above), and checks each against [`LAYERS`]. A new
//! top-level module gets its place in [`LAYERS`]; a use that points up means the used item
//! belongs lower down (move it, and re-export it where users find it).
//!
//! `LAYERING_PRINT=1 cargo test -p prompt-runtime --test layering -- --nocapture` prints
//! the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, bottom first. A module may use the modules of the
/// layers before its own, never one of its own layer or above.
///
/// Above the language core (`parse`, `resolve`, `render`) the project: the one run-time
/// value (`value`, with the views the compiled renders read), PromptEngine's stores
/// (`store`, which print values by Python's rules), the prompts folder (`load`'s
/// `Project` and `promptic.json`), the Markdown checker (`check`, which adds
/// `Project::check`), the formats (`formats`, each adding its own loading to `Project`)
/// and keep's families (`family`, over keep's documents in `formats`).
const LAYERS: &[&[&str]] = &[
    &[
        "case",
        "diagnostic",
        "digest",
        "guidance",
        "role",
        "scaling",
        "suggest",
        "swap",
    ],
    &["source"],
    &["identity", "parse"],
    &["meta", "python"],
    &["chat"],
    &["resolve"],
    &["render"],
    &["context"],
    &["value"],
    &["store"],
    &["load"],
    &["check"],
    &["formats"],
    &["family"],
    &["doc", "output", "prompt"],
    &["clients", "private"],
];

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    if std::env::var_os("LAYERING_PRINT").is_some() {
        print_graph(&graph);
    }
    let layer_of = layer_index();
    let modules: BTreeSet<&str> = graph.keys().map(String::as_str).collect();
    let placed: BTreeSet<&str> = layer_of.keys().copied().collect();
    assert_eq!(
        modules, placed,
        "every top-level module of src/ has its place in LAYERS, and only those"
    );
    let mut wrong = Vec::new();
    for (from, uses) in &graph {
        for (to, files) in uses {
            let (a, b) = (layer_of[from.as_str()], layer_of[to.as_str()]);
            if b >= a {
                wrong.push(format!(
                    "{from} (layer {a}) uses {to} (layer {b}) in {files:?}"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "a module uses one of its own layer or above:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_cycle_between_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    let edges: BTreeMap<&str, BTreeSet<&str>> = graph
        .iter()
        .map(|(from, uses)| (from.as_str(), uses.keys().map(String::as_str).collect()))
        .collect();
    let cycles: Vec<Vec<&str>> = strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .collect();
    assert!(
        cycles.is_empty(),
        "modules that need one another: {cycles:?}"
    );
}

#[test]
fn the_reader_finds_uses_and_skips_comments_strings_and_tests() {
    let text = r##"
        use crate::{diagnostic::Diagnostic, parse::{self, Node}};
        use super::super::case::upper_first;
        // crate::store is only mentioned
        /// [`x`](crate::hot::HotPrompt)
        const A: &str = "crate::clients";
        const B: &str = r#"crate::output " "#;
        const C: char = '{';
        fn f<'a>(x: &'a str) -> crate::Role { todo!() }
        #[cfg(test)]
        mod tests {
            use crate::check;
            const D: char = '}';
        }
        #[cfg(test)]
        mod more;
    "##;
    let (uses, test_modules) = uses_in(text, 2);
    let roots = root_reexports(&[("Role", "role")]);
    let named: BTreeSet<String> = uses.iter().filter_map(|u| resolve(u, &roots)).collect();
    assert_eq!(
        named,
        ["case", "diagnostic", "parse", "role"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    assert_eq!(test_modules, ["more".to_owned()]);
}

fn layer_index() -> BTreeMap<&'static str, usize> {
    let mut at = BTreeMap::new();
    for (i, layer) in LAYERS.iter().enumerate() {
        for m in *layer {
            assert!(at.insert(*m, i).is_none(), "`{m}` is in two layers");
        }
    }
    at
}

/// Module → the modules it uses → the files that use them.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn print_graph(graph: &Graph) {
    for (from, uses) in graph {
        let to: Vec<&str> = uses.keys().map(String::as_str).collect();
        println!("{from} -> {}", to.join(", "));
    }
}

fn module_graph(src: &Path) -> Graph {
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let roots = root_reexports(&lib_reexports(&lib));
    let mut graph = Graph::new();
    let mut files = Vec::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        if name == "lib" {
            continue;
        }
        graph.entry(name).or_default();
        collect_rs(&path, &mut files);
    }
    // Files that are `#[cfg(test)] mod name;` of their parent are skipped whole.
    let mut test_files = BTreeSet::new();
    let mut work: Vec<(PathBuf, String)> = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        work.push((file.clone(), text));
    }
    for (file, text) in &work {
        let (_, tests) = uses_in(text, depth(src, file));
        for name in tests {
            let dir = child_dir(file);
            test_files.insert(dir.join(format!("{name}.rs")));
            test_files.insert(dir.join(&name));
        }
    }
    for (file, text) in &work {
        if test_files.iter().any(|t| file.starts_with(t)) {
            continue;
        }
        let module = top_module(src, file);
        let (uses, _) = uses_in(text, depth(src, file));
        for used in uses {
            let Some(to) = resolve(&used, &roots) else {
                continue;
            };
            if to != module {
                let shown = file.strip_prefix(src).unwrap().display().to_string();
                graph
                    .entry(module.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(shown);
            }
        }
    }
    graph
}

fn collect_rs(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            collect_rs(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

/// The folder where the submodules a file declares live: `a/` for `a.rs` and `a/mod.rs`.
fn child_dir(file: &Path) -> PathBuf {
    let parent = file.parent().unwrap();
    match file.file_stem().unwrap().to_str().unwrap() {
        "mod" | "lib" => parent.to_owned(),
        stem => parent.join(stem),
    }
}

fn top_module(src: &Path, file: &Path) -> String {
    let first = file.strip_prefix(src).unwrap().components().next().unwrap();
    let first = Path::new(first.as_os_str());
    first.file_stem().unwrap().to_str().unwrap().to_owned()
}

/// How many `super::` lead from this file's module to the crate root.
fn depth(src: &Path, file: &Path) -> usize {
    let rel = file.strip_prefix(src).unwrap();
    let parts = rel.components().count();
    if rel.file_name().unwrap() == "mod.rs" {
        parts - 1
    } else {
        parts
    }
}

/// The names `lib.rs` re-exports at the crate root, with the module each comes from.
fn lib_reexports(lib: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for line in lib.lines() {
        let Some(rest) = line.strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() {
                out.push((name, module));
            }
        }
    }
    out.push(("__private", "private"));
    out
}

fn root_reexports(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(n, m)| ((*n).to_owned(), (*m).to_owned()))
        .collect()
}

/// The top-level module a used path starts in: `parse` for `parse::lexer`, `role` for
/// `Role` when the crate root re-exports it from `role`.
fn resolve(first: &str, roots: &BTreeMap<String, String>) -> Option<String> {
    match roots.get(first) {
        Some(module) => Some(module.clone()),
        None if first.chars().next().is_some_and(char::is_lowercase) => Some(first.to_owned()),
        None => None,
    }
}

/// The first segment after `crate::` of every path in `text` (each name of a
/// `crate::{…}` group), and the names of the `#[cfg(test)] mod name;` it declares.
/// `depth` is how many `super::` reach the crate root from this file.
fn uses_in(text: &str, depth: usize) -> (Vec<String>, Vec<String>) {
    let code = without_tests(&code_only(text));
    let mut uses = Vec::new();
    let words = tokens(&code.text);
    let mut i = 0;
    while i < words.len() {
        let start = if words[i] == "crate" {
            Some(i + 1)
        } else if words[i] == "super" {
            let mut n = 0;
            let mut j = i;
            while words.get(j) == Some(&"super") && words.get(j + 1) == Some(&"::") {
                n += 1;
                j += 2;
            }
            (n >= depth && j > i).then(|| j - 1)
        } else {
            None
        };
        if let Some(at) = start
            && words.get(at) == Some(&"::")
        {
            match words.get(at + 1) {
                Some(&"{") => {
                    let mut level = 0;
                    let mut expect_name = true;
                    for w in &words[at + 1..] {
                        match *w {
                            "{" => {
                                level += 1;
                                expect_name = level == 1;
                            }
                            "}" => {
                                level -= 1;
                                if level == 0 {
                                    break;
                                }
                            }
                            "," if level == 1 => expect_name = true,
                            name if expect_name && level == 1 => {
                                uses.push(name.to_owned());
                                expect_name = false;
                            }
                            _ => {}
                        }
                    }
                }
                Some(name) => uses.push((*name).to_owned()),
                None => {}
            }
        }
        i += 1;
    }
    (uses, code.test_modules)
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(&text[start..i]);
        } else if text[i..].starts_with("::") {
            out.push("::");
            i += 2;
        } else if c.is_ascii_whitespace() || !c.is_ascii() {
            i += 1;
        } else {
            out.push(&text[i..i + 1]);
            i += 1;
        }
    }
    out
}

/// `text` with comments, string literals and character literals blanked out.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let mut level = 0;
            while i < b.len() {
                if text[i..].starts_with("/*") {
                    level += 1;
                    i += 2;
                } else if text[i..].starts_with("*/") {
                    level -= 1;
                    i += 2;
                    if level == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(hashes) = raw_string_start(rest).filter(|_| !after_word(text, i)) {
            // r"…", r#"…"#, br#"…"#
            let open = rest.find('"').unwrap();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = &rest[open + 1..];
            let end = body
                .find(&close)
                .map_or(b.len(), |n| i + open + 1 + n + close.len());
            out.push_str("\"\"");
            i = end;
        } else if b[i] == b'"'
            || (b[i] == b'b' && rest[1..].starts_with('"') && !after_word(text, i))
        {
            let mut j = i + if b[i] == b'b' { 2 } else { 1 };
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let chars: Vec<char> = rest.chars().take(12).collect();
            let literal_len = if chars.get(1) == Some(&'\\') {
                rest[3..].find('\'').map(|n| n + 4)
            } else if chars.get(2) == Some(&'\'') {
                Some(2 + chars[1].len_utf8())
            } else {
                None
            };
            match literal_len {
                Some(n) => {
                    out.push_str("' '");
                    i += n;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Whether the byte before `i` belongs to an identifier.
fn after_word(text: &str, i: usize) -> bool {
    text[..i]
        .bytes()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// How many `#` a raw string starting here has, if one starts here.
fn raw_string_start(rest: &str) -> Option<usize> {
    let r = rest.strip_prefix('b').unwrap_or(rest).strip_prefix('r')?;
    let hashes = r.len() - r.trim_start_matches('#').len();
    r[hashes..].starts_with('"').then_some(hashes)
}

struct Code {
    text: String,
    test_modules: Vec<String>,
}

/// Code without its `#[cfg(test)]` items; the names of `#[cfg(test)] mod name;`.
fn without_tests(code: &str) -> Code {
    const MARK: &str = "#[cfg(test)]";
    let mut text = String::with_capacity(code.len());
    let mut test_modules = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        text.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let b = item.as_bytes();
        let mut i = 0;
        let mut level = 0;
        let mut end = item.len();
        while i < b.len() {
            match b[i] {
                b'[' | b'(' => level += 1,
                b']' | b')' => level -= 1,
                b';' if level == 0 => {
                    let words = tokens(&item[..i]);
                    if let [.., "mod", name] = words.as_slice() {
                        test_modules.push((*name).to_owned());
                    }
                    end = i + 1;
                    break;
                }
                b'{' if level == 0 => {
                    let mut braces = 0;
                    while i < b.len() {
                        match b[i] {
                            b'{' => braces += 1,
                            b'}' => {
                                braces -= 1;
                                if braces == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    end = (i + 1).min(item.len());
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        rest = &item[end..];
    }
    text.push_str(rest);
    Code { text, test_modules }
}

/// Tarjan's strongly connected components.
fn strongly_connected<'a>(edges: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(v: &'a str, edges: &BTreeMap<&'a str, BTreeSet<&'a str>>, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, edges, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort();
            s.out.push(component);
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(v, edges, &mut s);
        }
    }
    s.out
}
