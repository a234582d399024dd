//! A prompts folder many folders deep is walked and checked in time in proportion to its
//! folders. Asking for each folder's canonical path in the walk, and for each prompt's
//! file's in its check, would cost a question per component of the path (`promptic list`
//! on a tree 400 deep: 1.9 s; 800 deep: 12–14 s).

#[path = "../src/scaling.rs"]
mod scaling;

use prompt_runtime::load::Project;
use std::path::{Path, PathBuf};

/// A folder `depth` folders deep, `d/d/…/d`, with a prompt in each.
fn tree(root: &Path, depth: usize) -> PathBuf {
    let dir = root.join(format!("depth{depth}"));
    let _ = std::fs::remove_dir_all(&dir);
    let mut at = dir.clone();
    for level in 0..depth {
        at.push("d");
        std::fs::create_dir_all(&at).unwrap();
        std::fs::write(at.join("p.md"), format!("Level {level}: $x\n")).unwrap();
    }
    dir
}

/// What `promptic list` and `check` do: walk, then check each prompt found.
fn list(dir: &Path, depth: usize) {
    let project = Project::open(dir, "prompts").unwrap();
    let walked = project.prompts();
    assert_eq!(walked.names.len(), depth);
    assert!(walked.errors.is_empty(), "{}", walked.errors);
    for name in &walked.names {
        project.check_inferred(name).unwrap();
    }
}

#[test]
fn a_deep_tree_is_listed_in_time_in_proportion_to_its_folders() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("deep-folders-{}", std::process::id()));
    let (small, large) = (tree(&root, 30), tree(&root, 300));
    scaling::assert_linear("the depth", || list(&small, 30), || list(&large, 300));
    let _ = std::fs::remove_dir_all(&root);
}
