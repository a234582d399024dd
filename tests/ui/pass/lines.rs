// A false block leaves no blank line behind, at the start, in the middle, at the end of
// a prompt, and at the end of an inlined template; a template alone on its line that
// renders nothing leaves no line either.
#[derive(promptic::Prompt)]
#[prompt("lines")]
struct Lines {
    x: bool,
    y: bool,
}

fn main() {
    let identity = promptic::Identity::default();
    let render = |x, y| Lines { x, y }.render(&identity).text;
    assert_eq!(render(true, true), "X first\nTail start\nY in tail\n\nMiddle\nOnly x\nY last");
    assert_eq!(render(true, false), "X first\nTail start\n\nMiddle\nOnly x");
    assert_eq!(render(false, true), "Tail start\nY in tail\n\nMiddle\nY last");
    assert_eq!(render(false, false), "Tail start\n\nMiddle");
    let out = Lines { x: false, y: false }.render(&identity).text;
    assert_eq!(out.capacity(), out.len());
}
