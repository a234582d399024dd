//! A render allocates its text and nothing else, and no more of it than its output
//! limit: counted with a counting allocator.

use prompt_runtime::Identity;
use prompt_runtime::load::Project;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::Path;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    /// The largest block asked for.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn count(size: usize) {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    let _ = LARGEST.try_with(|n| n.set(n.get().max(size)));
}

// SAFETY: every call is forwarded to the system allocator unchanged; the count is a
// thread-local `Cell` with a const initialiser, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded as given.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as given.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
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

/// The largest block `f` asks for.
fn largest_allocation_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    LARGEST.with(|n| n.set(0));
    let out = f();
    (LARGEST.with(Cell::get), out)
}

#[test]
fn a_json_helper_stops_at_the_output_limit_as_it_writes() {
    use prompt_runtime::formats::dotprompt::{DEFAULT_OUTPUT_LIMIT, DataArgument, Registry};
    // 100,000 numbers 90 levels deep, 600 KB of JSON: written with an indent of 10, each
    // number takes a line of 900 spaces, 90 MB in all, past the 32 MiB limit. It is
    // refused once the text passes the limit, not after it is written whole.
    let mut input = format!("[{}]", vec!["1"; 100_000].join(","));
    for _ in 0..89 {
        input = format!("{{\"a\":{input}}}");
    }
    let data: DataArgument =
        serde_json::from_str(&format!("{{\"input\": {{\"x\": {input}}}}}")).unwrap();
    let prompt = Registry::new().parse("{{json x indent=10}}").unwrap();
    let (largest, rendered) = largest_allocation_of(|| prompt.render(&data));
    let error = rendered.unwrap_err().to_string();
    assert!(error.contains("larger than"), "{error}");
    assert!(
        largest <= 2 * DEFAULT_OUTPUT_LIMIT,
        "{largest} bytes asked for at once"
    );
}

#[test]
fn a_partial_indented_alone_on_its_line_stops_at_the_output_limit_as_it_is_indented() {
    use prompt_runtime::formats::dotprompt::{DEFAULT_OUTPUT_LIMIT, DataArgument, Registry};
    // 100 KB of spaces before a partial of 2,000 lines: each line indented by them, 200
    // MB in all, past the 32 MiB limit. Refused as the indent is counted, not after.
    let mut registry = Registry::new();
    registry
        .define_partial("p", &"line\n".repeat(2_000))
        .unwrap();
    let source = format!("start\n{}{{{{> p}}}}\nend", " ".repeat(100_000));
    let prompt = registry.parse(&source).unwrap();
    let (largest, rendered) = largest_allocation_of(|| prompt.render(&DataArgument::default()));
    let error = rendered.unwrap_err().to_string();
    assert!(
        error.contains("larger than"),
        "{}",
        &error[..error.len().min(300)]
    );
    assert!(
        largest <= 2 * DEFAULT_OUTPUT_LIMIT,
        "{largest} bytes asked for at once"
    );
    // A short indent indents each line.
    registry.define_partial("q", "a\nb\n").unwrap();
    let prompt = registry.parse("x\n  {{> q}}\ny").unwrap();
    let rendered = prompt.render(&DataArgument::default()).unwrap();
    let json = serde_json::to_value(&rendered).unwrap();
    assert_eq!(json["messages"][0]["content"][0]["text"], "x\n  a\n  b\ny");
}
