//! The runtime's modules form layers: no module reaches, through the modules it uses,
//! back to itself. The language core (`diagnostic`, `source`, `parse`, `resolve`, ...)
//! stays below the formats, the CLI's helpers and hot reload, so each can be read (and one
//! day built) without the ones above it.
//!
//! A use is a `crate::module` path in code: comments and doc comments (whose links may
//! point anywhere) and test code are not uses.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module, with the modules its code names and one place for each.
fn uses() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).expect("src is readable") {
        let path = entry.expect("src is readable").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        if name == "lib" {
            continue;
        }
        let files = modules.entry(name).or_default();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, files) in &modules {
        let mut used: BTreeMap<String, String> = BTreeMap::new();
        for file in files {
            let text = std::fs::read_to_string(file).expect("a source file is readable");
            // A file's unit tests come last, after `#[cfg(test)]`.
            let code = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or_default();
            for (n, line) in code.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for piece in line.split("crate::").skip(1) {
                    let target: String = piece
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                        .collect();
                    if target != *module && names.contains(&target) {
                        let place = format!("{}:{}", file.display(), n + 1);
                        used.entry(target).or_insert(place);
                    }
                }
            }
        }
        graph.insert(module.clone(), used);
    }
    graph
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a module folder is readable")
        .map(|e| e.expect("a module folder is readable").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let test_code =
            name == "tests.rs" || name.ends_with("_tests.rs") || name == "test_support.rs";
        if path.is_dir() {
            collect(&path, files);
        } else if name.ends_with(".rs") && !test_code {
            files.push(path);
        }
    }
}

/// A cycle through `from`, as the modules on it, or `None`.
fn cycle_from(
    graph: &BTreeMap<String, BTreeMap<String, String>>,
    from: &str,
) -> Option<Vec<String>> {
    let mut path = vec![from.to_owned()];
    let mut seen = BTreeSet::new();
    fn walk(
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
        goal: &str,
    ) -> bool {
        let Some(here) = path.last().cloned() else {
            return false;
        };
        for next in graph.get(&here).into_iter().flat_map(|u| u.keys()) {
            if next == goal {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, path, seen, goal) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    walk(graph, &mut path, &mut seen, from).then_some(path)
}

#[test]
fn no_module_uses_itself_through_others() {
    let graph = uses();
    assert!(
        graph.len() > 20,
        "the modules were not found: {:?}",
        graph.keys()
    );
    for module in graph.keys() {
        if let Some(cycle) = cycle_from(&graph, module) {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]]))
                .collect();
            panic!(
                "the modules use each other in a circle:\n  {}",
                steps.join("\n  ")
            );
        }
    }
}

#[test]
fn the_core_uses_nothing_above_it() {
    let graph = uses();
    // What reads and checks the language itself.
    for core in [
        "diagnostic",
        "source",
        "parse",
        "meta",
        "role",
        "identity",
        "value",
    ] {
        let used = graph
            .get(core)
            .map(|u| u.keys().cloned().collect::<Vec<_>>());
        for above in [
            "formats", "check", "load", "store", "hot", "family", "clients",
        ] {
            assert!(
                !used.iter().flatten().any(|u| u == above),
                "`{core}` uses `{above}` ({})",
                graph[core][above]
            );
        }
    }
}
