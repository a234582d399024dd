//! A derived render allocates its text and nothing else, identity values included, and
//! reaches identity values by slot: an identity built before or after the prompt's first
//! render, or one lacking keys, gives the right text.

use promptic::{Identity, Prompt};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

#[derive(Prompt)]
#[prompt("segment_synthesis")]
struct SegmentSynthesis<'a> {
    day: &'a str,
    segment_start: &'a str,
    segment_end: &'a str,
    note: Option<&'a str>,
}

fn context() -> SegmentSynthesis<'static> {
    SegmentSynthesis {
        day: "Friday",
        segment_start: "2:30 PM",
        segment_end: "2:35 PM",
        note: Some("ran long"),
    }
}

#[test]
fn a_derived_render_allocates_once_and_reads_identity_by_slot() {
    let prompt = context();
    // Built before the prompt's slots are first looked up.
    let early = Identity::from_pairs([("preferred", "jordan")]);
    let first = prompt.render(&early);
    assert!(first.text.contains("what jordan was doing"));
    assert!(first.text.contains("journal of jordan"));
    let before = ALLOCATIONS.with(Cell::get);
    let out = prompt.render(&early);
    let count = ALLOCATIONS.with(Cell::get) - before;
    assert_eq!(count, 1, "allocations in one render");
    assert_eq!(out.text.capacity(), out.text.len());
    // Built after: same slots, other values.
    let late = Identity::from_pairs([("preferred", "sam"), ("unrelated", "x")]);
    assert_eq!(
        prompt.render(&late).text,
        first.text.replace("jordan", "sam").replace("Jordan", "Sam")
    );
    // An identity without the key renders it as empty text (check_identity catches it).
    let empty = prompt.render(&Identity::default());
    assert!(!empty.text.contains("jordan"));
    assert!(
        promptic::check_identity(&Identity::default(), &[SegmentSynthesis::IDENTITY_KEYS]).is_err()
    );
}
