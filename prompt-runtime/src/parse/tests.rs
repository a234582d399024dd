use super::*;

fn parse_str(text: &str) -> (SourceFile, Vec<Node>, Diagnostics) {
    let source = SourceFile::new("p.md", text);
    let (nodes, d) = parse(&source, 0..text.len(), ParseOptions::default());
    (source, nodes, d)
}

/// A compact picture of the tree: text is shown as written.
fn show(source: &SourceFile, nodes: &[Node]) -> String {
    let mut out = String::new();
    for node in nodes {
        match node {
            Node::Text(r) => out.push_str(&format!("[{}]", &source.text()[r.clone()])),
            Node::Dollar(_) => out.push_str("<$>"),
            Node::Placeholder(p) => out.push_str(&format!("<{}>", p.name)),
            Node::If(b) => {
                let cond = match &b.condition {
                    Condition::Set { name, .. } => name.clone(),
                    Condition::Equals { name, value, .. } => format!("{name}=={value}"),
                };
                out.push_str(&format!("IF({cond}){{{}}}", show(source, &b.then)));
                if let Some(e) = &b.otherwise {
                    out.push_str(&format!("ELSE{{{}}}", show(source, e)));
                }
            }
            Node::Section(s) => match &s.kind {
                SectionKind::Message(role) => out.push_str(&format!("§{role}:{}", s.name)),
                SectionKind::History { limit, .. } => {
                    out.push_str(&format!("§history:{}:{limit:?}", s.name))
                }
            },
            Node::CacheBreakpoint(_) => out.push('|'),
        }
    }
    out
}

fn first_error(text: &str) -> (String, usize, usize) {
    let (_, _, d) = parse_str(text);
    let e =
        d.0.first()
            .unwrap_or_else(|| panic!("no error for {text:?}"));
    let loc = e.location().unwrap();
    (e.message().to_owned(), loc.line, loc.col)
}

#[test]
fn text_placeholders_and_escapes() {
    let (s, nodes, d) = parse_str("Cost: $$5 for ${who}, $5 $name.");
    assert!(d.is_empty());
    assert_eq!(show(&s, &nodes), "[Cost: ]<$>[5 for ]<who>[, $5 ]<name>[.]");
}

#[test]
fn directive_lines_vanish_with_their_newline() {
    let (s, nodes, d) = parse_str("A\n{% if x %}\nB $x\n{% else %}\nC\n{% endif %}\nD");
    assert!(d.is_empty(), "{d}");
    assert_eq!(show(&s, &nodes), "[A\n]IF(x){[B ]<x>[\n]}ELSE{[C\n]}[D]");
}

#[test]
fn indented_directives_and_equality() {
    let (s, nodes, d) = parse_str("  {% if level == \"lean\" %}\nL\n  {% endif %}");
    assert!(d.is_empty(), "{d}");
    assert_eq!(show(&s, &nodes), "IF(level==lean){[L\n]}");
}

#[test]
fn blocks_nest() {
    let (s, nodes, d) = parse_str("{% if a %}\n{% if b %}\nAB\n{% endif %}\nA\n{% endif %}\nEnd");
    assert!(d.is_empty(), "{d}");
    assert_eq!(show(&s, &nodes), "IF(a){IF(b){[AB\n]}[A\n]}[End]");
}

#[test]
fn unclosed_if_is_reported_at_its_line() {
    let (m, line, col) = first_error("x\n{% if note %}\nN\n");
    assert_eq!(m, "`{% if note %}` is never closed");
    assert_eq!((line, col), (2, 1));
}

#[test]
fn stray_endif_and_else() {
    let (m, line, _) = first_error("x\n{% endif %}");
    assert!(m.contains("`{% endif %}` without an open"), "{m}");
    assert_eq!(line, 2);
    let (m, ..) = first_error("{% else %}");
    assert!(m.contains("`{% else %}` without an open"), "{m}");
    let (m, line, _) = first_error("{% if a %}\n{% else %}\n{% else %}\n{% endif %}");
    assert!(m.contains("second `{% else %}`"), "{m}");
    assert_eq!(line, 3);
}

#[test]
fn directive_mid_line_is_an_error() {
    let (m, line, col) = first_error("Intro\nSay {% if x %} hi {% endif %}\n");
    assert_eq!(m, "a directive must stand on a line of its own");
    assert_eq!((line, col), (2, 5));
    // The line is not read further: `$x` there is no second error (unguarded, unknown).
    let (_, nodes, d) = parse_str("Intro $a\nSay {% if x %}$x{% endif %}\nEnd $b\n");
    assert_eq!(d.0.len(), 1, "{d}");
    let names: Vec<&str> = nodes
        .iter()
        .filter_map(|n| match n {
            Node::Placeholder(p) => Some(p.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn unknown_directive_suggests() {
    let (_, _, d) = parse_str("{% if a %}\nx\n{% endfi %}");
    let e = &d.0[0];
    assert_eq!(e.message(), "unknown directive `endfi`");
    assert_eq!(e.help(), Some("did you mean `endif`?"));
}

#[test]
fn unclosed_brace_placeholder_is_an_error_in_strict_mode() {
    let (m, line, col) = first_error("ok\nHello ${name\n");
    assert_eq!(m, "`${` must be followed by a name and `}`");
    assert_eq!((line, col), (2, 7));
    let source = SourceFile::new("p.md", "Hello ${name");
    let (nodes, d) = parse(
        &source,
        0..12,
        ParseOptions {
            strict: false,
            ..ParseOptions::default()
        },
    );
    assert!(d.is_empty());
    assert_eq!(show(&source, &nodes), "[Hello ${name]");
}

#[test]
fn bad_conditions() {
    assert!(
        first_error("{% if %}\n{% endif %}")
            .0
            .contains("needs a condition")
    );
    assert!(
        first_error("{% if \"a\" %}\n{% endif %}")
            .0
            .contains("tests a name")
    );
    assert!(
        first_error("{% if a == b %}\n{% endif %}")
            .0
            .contains("malformed")
    );
    assert!(
        first_error("{% endif x %}")
            .0
            .contains("takes no arguments")
    );
}

#[test]
fn all_errors_are_collected() {
    let (_, _, d) = parse_str("{% endif %}\n${\n{% iff a %}\nx {% if %}");
    assert_eq!(d.0.len(), 4, "{d}");
}

#[test]
fn spans_point_into_the_body_offset() {
    let text = "{\n\"title\": \"x\"\n}\n\nHi $name";
    let source = SourceFile::new("p.md", text);
    let body = text.find("Hi").unwrap()..text.len();
    let (nodes, _) = parse(&source, body, ParseOptions::default());
    match &nodes[1] {
        Node::Placeholder(p) => assert_eq!(&text[p.span.clone()], "$name"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_directive_that_cannot_be_read_still_opens_or_closes_its_block() {
    for text in [
        "{% if é %}\nx\n{% endif %}",
        "{% if note == \"a %}\nx\n{% endif %}",
        "{% if note %}\nx\n{% else é %}\ny\n{% endif %}",
        "{% if note %}\nx\n{% endif é %}",
    ] {
        let (_, _, d) = parse_str(text);
        assert_eq!(d.0.len(), 1, "{text:?}: {d}");
    }
}

#[test]
fn chat_sections_strip_their_text_and_are_named() {
    let text = "Be brief.\n\n{% system context %}\n\nToday: $day\n\n{% history turns limit=3 %}\n{% user %}\n  $q  \n";
    let source = SourceFile::new("p.md", text);
    let (nodes, d) = parse(&source, 0..text.len(), ParseOptions::default());
    assert!(d.is_empty(), "{d}");
    assert_eq!(
        show(&source, &nodes),
        "[Be brief.]§system:context[Today: ]<day>§history:turns:Some(3)§user:user<q>"
    );
}

#[test]
fn chat_section_errors() {
    let errors = |text: &str| {
        let source = SourceFile::new("p.md", text);
        let (_, d) = parse(&source, 0..text.len(), ParseOptions::default());
        d.0.iter()
            .map(|d| format!("{} | {}", d.message(), d.help().unwrap_or("")))
            .collect::<Vec<_>>()
    };
    let found = errors("{% sytem %}\nx");
    assert!(
        found[0].starts_with("unknown directive `sytem` | did you mean `system`?"),
        "{found:?}"
    );
    let found = errors("x\n{% user a %}\ny\n{% assistant a %}\nz\n{% user system_prompt %}");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("a second section named `a` | section `a` starts on line 2"),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("a second section named `system_prompt`"),
        "{found:?}"
    );
    let found = errors("{% if x %}\n{% user %}\nhi\n{% endif %}");
    assert!(
        found[0].starts_with("`user` section inside an `{% if %}` block"),
        "{found:?}"
    );
    for bad in [
        "{% history t limit=x %}",
        "{% history t limit %}",
        "{% history t limit=-1 %}",
        "{% history t 3 %}",
    ] {
        let found = errors(bad);
        assert!(
            found
                .iter()
                .any(|f| f.contains("limit") || f.contains("unexpected")),
            "{bad}: {found:?}"
        );
    }
    assert!(errors("{% history %}")[0].starts_with("`history` needs the name"));
    assert!(errors("{% user a b %}")[0].starts_with("`user` takes one name"));
}

#[test]
fn many_bad_dollar_braces_on_one_line_are_read_in_linear_time() {
    // Each `${` is underlined up to its line's `}`: the line end and the `}` are searched
    // for once, not once per `${`.
    use crate::parse::lexer::SCANNED;
    for text in ["${ ".repeat(20_000), "${ ".repeat(20_000) + "}"] {
        let source = SourceFile::new("p.md", text.as_str());
        SCANNED.with(|s| s.set(0));
        let (_, diagnostics) = parse(&source, 0..text.len(), ParseOptions::default());
        let scanned = SCANNED.with(|s| s.get());
        assert!(
            (text.len() / 2..=4 * text.len()).contains(&scanned),
            "{scanned} bytes read for {}",
            text.len()
        );
        assert!(!diagnostics.is_empty());
    }
}

#[test]
fn cache_breakpoints_at_the_top_level_only_and_at_most_four() {
    let (s, nodes, d) = parse_str("Rules.\n{% cache_breakpoint %}\nAsk $q");
    assert!(d.is_empty(), "{d}");
    assert_eq!(show(&s, &nodes), "[Rules.\n]|[Ask ]<q>");
    let (m, line, col) = first_error("{% if a %}\n{% cache_breakpoint %}\n{% endif %}");
    assert_eq!(m, "`cache_breakpoint` inside an `{% if %}` block");
    assert_eq!((line, col), (2, 1));
    let (m, ..) = first_error("{% cache_breakpoint now %}");
    assert_eq!(m, "`cache_breakpoint` takes no arguments");
    let five = "x\n{% cache_breakpoint %}\n".repeat(5);
    let (m, line, _) = first_error(&five);
    assert_eq!(m, "more than 4 cache breakpoints");
    assert_eq!(line, 10);
    let (m, ..) = first_error("{% cache_breakpont %}");
    assert_eq!(m, "unknown directive `cache_breakpont`");
}
