//! A render allocates its text and nothing else: counted with a counting allocator.

use prompt_runtime::Identity;
use prompt_runtime::load::Project;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::Path;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the count is a
// thread-local `Cell` with a const initialiser, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded as given.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as given.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded as given.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

#[test]
fn a_run_time_render_allocates_once() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prompts");
    let project = Project::open(&dir, "prompts").expect("the example prompts open");
    let prompt = project
        .check_inferred("weekly_review")
        .expect("weekly_review checks");
    let identity = Identity::from_json(
        &std::fs::read_to_string(dir.join("promptic.json")).expect("promptic.json reads"),
    )
    .expect("the example identity reads");
    let context: HashMap<String, String> = prompt
        .schema
        .context
        .iter()
        .map(|v| (v.name.clone(), format!("value of {}", v.name)))
        .collect();
    let (count, out) = allocations_of(|| prompt.render(&context, &identity));
    let out = out.expect("renders");
    assert_eq!(count, 1, "allocations in one render");
    assert_eq!(out.text.capacity(), out.text.len());
    assert!(out.text.contains("value of week_start"));
    assert_eq!(out.path, "prompts/weekly_review.md");
    // Changing the checked prompt's metadata is seen by the next render.
    let mut changed = prompt.clone();
    changed.meta.title = Some("Changed".into());
    let (count, out) = allocations_of(|| changed.render(&context, &identity));
    assert_eq!(
        out.expect("renders").metadata.title.as_deref(),
        Some("Changed")
    );
    // That render copies the metadata (the counter does count).
    assert!(count > 1, "{count}");
}
