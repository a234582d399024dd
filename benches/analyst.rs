//! The analyst prompt of `jinja_render.rs`'s second group: its struct, values and the
//! hand-written baseline, shared with `jinja_instructions.rs` (instruction counts).

use promptic::{Guidance, PromptValue};
use std::collections::BTreeMap;
use std::fmt::Write as _;

#[derive(PromptValue)]
pub struct User<'a> {
    name: Option<&'a str>,
    locale: Option<&'a str>,
}

#[derive(PromptValue)]
pub struct Tool<'a> {
    name: &'a str,
    kind: &'a str,
    slow: bool,
    retired: bool,
    cost: Option<u32>,
}

#[derive(promptic::Prompt)]
#[prompt("agents/analyst")]
pub struct Analyst<'a> {
    guidance: Guidance,
    desk: &'a str,
    date: &'a str,
    user: User<'a>,
    markets: &'a [&'a str],
    tools: &'a [Tool<'a>],
    limits: BTreeMap<&'a str, u32>,
    max_steps: Option<u32>,
    notes: Option<&'a str>,
    tone: Option<&'a str>,
    precision: Option<u32>,
}

const ANALYST_TOOLS: [Tool<'static>; 6] = [
    Tool {
        name: "search",
        kind: "web",
        slow: true,
        retired: false,
        cost: Some(2),
    },
    Tool {
        name: "filings",
        kind: "documents",
        slow: false,
        retired: false,
        cost: None,
    },
    Tool {
        name: "quotes",
        kind: "market data",
        slow: false,
        retired: false,
        cost: Some(1),
    },
    Tool {
        name: "fax",
        kind: "legacy",
        slow: true,
        retired: true,
        cost: None,
    },
    Tool {
        name: "chart",
        kind: "plot",
        slow: true,
        retired: false,
        cost: None,
    },
    Tool {
        name: "notebook",
        kind: "mémoire",
        slow: false,
        retired: false,
        cost: Some(0),
    },
];

pub fn analyst() -> Analyst<'static> {
    Analyst {
        guidance: Guidance::Detailed,
        desk: "the Zürich Rates Desk",
        date: "2026-03-02",
        user: User {
            name: Some("Ada Okafor"),
            locale: Some("de-CH"),
        },
        markets: &["Bund futures", "SARON swaps", "EUR/CHF"],
        tools: &ANALYST_TOOLS,
        limits: BTreeMap::from([("calls", 40), ("minutes", 15), ("sources", 8)]),
        max_steps: None,
        notes: Some("  cite the SNB first\n"),
        tone: None,
        precision: Some(3),
    }
}

/// The analyst's fields as the renderers read them (an absent `Option` left out).
pub fn analyst_values(a: &Analyst<'_>) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    let mut put = |name: &str, value: Option<serde_json::Value>| {
        if let Some(value) = value {
            map.insert(name.to_owned(), value);
        }
    };
    put("guidance", a.guidance.to_value());
    put("desk", a.desk.to_value());
    put("date", a.date.to_value());
    put("user", a.user.to_value());
    put("markets", a.markets.to_value());
    put("tools", a.tools.to_value());
    put("limits", a.limits.to_value());
    put("max_steps", a.max_steps.to_value());
    put("notes", a.notes.to_value());
    put("tone", a.tone.to_value());
    put("precision", a.precision.to_value());
    serde_json::Value::Object(map)
}

fn digits(mut n: u32) -> usize {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

fn upper_len(s: &str) -> usize {
    s.chars()
        .flat_map(char::to_uppercase)
        .map(char::len_utf8)
        .sum()
}

fn lower_len(s: &str) -> usize {
    s.chars()
        .flat_map(char::to_lowercase)
        .map(char::len_utf8)
        .sum()
}

fn push_upper(out: &mut String, s: &str) {
    out.extend(s.chars().flat_map(char::to_uppercase));
}

fn push_lower(out: &mut String, s: &str) {
    out.extend(s.chars().flat_map(char::to_lowercase));
}

/// Python's `str.strip()`: Python's whitespace, which is Rust's plus four separators.
fn py_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

const A_HEAD: &str = "# Research analyst\n\nYou are the research analyst for ";
const A_METHOD_1: &str = "## How you work\n\n- Read the question twice; restate it in one sentence before you start.\n- Prefer primary sources: filings, central-bank releases, exchange data.\n- Quote figures with their date and their unit";
const A_METHOD_2: &str = ".\n- When two sources disagree, give both and say which you trust more, and why.\n- Keep a running list of open questions and close each one before you finish.\n";
const A_COACHING: &str = "\n### Coaching\n\n- If the question is vague, ask one short question before you search.\n- Show the arithmetic behind every ratio you compute.\n- Name what you could not check, rather than guessing at it.\n- Keep tables under eight rows; link to the rest.\n- Finish with the single number the reader most needs.\n";
const A_STYLE_1: &str = "\n## Style\n\nWrite in ";
const A_STYLE_2: &str = " prose. Use headings only past three paragraphs.\nNumbers get ";
const A_STYLE_3: &str = " decimals; currencies are ISO codes (EUR, USD, JPY, CHF).\nAvoid “hype”, “game-changer” and exclamation marks — même en français, 日本語でも.\n";
const A_NO_TOOLS: &str = "No tools today: answer from what you know, and say so.\n";
const A_CLOSING: &str = "\n## Before you answer\n\n";

/// The analyst prompt by hand: every length summed first, one allocation, then the pieces.
pub fn hand_written(a: &Analyst<'_>) -> String {
    let (locale, name, detailed, tone, notes, max_steps, many) = pieces(a);
    let kept = || a.tools.iter().filter(|t| !t.retired);

    let mut len = A_HEAD.len() + a.desk.len() + ". Today is ".len() + a.date.len();
    len += locale.map_or(0, |l| l.len() + 3) + ".\nYou answer ".len() + name.len();
    len += ", who follows ".len() + ".\n\n".len();
    len += a
        .markets
        .iter()
        .map(|m| m.len() + 2)
        .sum::<usize>()
        .saturating_sub(2);
    len += A_METHOD_1.len() + locale.map_or(0, |l| ", formatted for ".len() + l.len());
    len += A_METHOD_2.len() + if detailed { A_COACHING.len() } else { 0 };
    len += A_STYLE_1.len() + tone.len() + A_STYLE_2.len() + A_STYLE_3.len();
    len += a.precision.map_or(1, digits);
    len += "\n## Tools\n\n".len();
    let mut count = 0;
    for (i, t) in kept().enumerate() {
        count += 1;
        len += digits(u32::try_from(i + 1).unwrap_or(u32::MAX)) + ". **".len() + t.name.len();
        len += "** (".len() + upper_len(t.kind) + ")\n".len();
        len += if t.slow {
            ", slow: batch your calls".len()
        } else {
            0
        };
        len += t
            .cost
            .map_or(0, |c| 2 + digits(c) + " credits a call".len());
    }
    if count == 0 {
        len += A_NO_TOOLS.len();
    }
    len += "\n## Limits\n\n".len() + a.limits.len() * "- : \n".len() + " (checked last)".len();
    len += a
        .limits
        .iter()
        .map(|(k, v)| k.len() + digits(*v))
        .sum::<usize>();
    len += "Stop after ".len() + digits(max_steps) + " steps.\n".len();
    len += notes.map_or(0, |n| "; remember: ".len() + py_trim(n).len());
    len += A_CLOSING.len() + "Check the date (".len() + a.date.len() + "), the desk (".len();
    len += lower_len(a.desk) + "), and that every figure names its source.\n".len();
    if many {
        len += "You have ".len() + digits(u32::try_from(a.tools.len()).unwrap_or(u32::MAX));
        len += " tools; reach for the cheapest one that answers.\n".len();
    }

    let mut out = String::with_capacity(len);
    push_all::<Plain>(a, &mut out);
    out
}

/// The analyst prompt by hand, tuned: no length pass (the capacity a constant the output
/// fits in), ASCII cased in place, integers written by their digits.
pub fn hand_written_tuned(a: &Analyst<'_>) -> String {
    let mut out = String::with_capacity(2048);
    push_all::<Tuned>(a, &mut out);
    out
}

/// The values each way derives from the analyst's fields before writing.
fn pieces<'a>(
    a: &Analyst<'a>,
) -> (
    Option<&'a str>,
    &'a str,
    bool,
    &'a str,
    Option<&'a str>,
    u32,
    bool,
) {
    (
        a.user.locale.filter(|l| !l.is_empty()),
        a.user.name.unwrap_or("the user"),
        a.guidance == Guidance::Detailed,
        a.tone.unwrap_or("plain, direct"),
        a.notes.filter(|n| !n.is_empty()),
        a.max_steps.unwrap_or(12),
        a.tools.len() > 3,
    )
}

/// How a hand-written program writes cased text and integers.
trait Style {
    fn upper(out: &mut String, s: &str);
    fn lower(out: &mut String, s: &str);
    fn int(out: &mut String, n: u64);
}

/// Character by character, and integers through `fmt`: what `hand_written` does.
struct Plain;

impl Style for Plain {
    fn upper(out: &mut String, s: &str) {
        push_upper(out, s);
    }
    fn lower(out: &mut String, s: &str) {
        push_lower(out, s);
    }
    fn int(out: &mut String, n: u64) {
        let _ = write!(out, "{n}");
    }
}

/// ASCII cased in place after one copy (run by run, where the text is not all ASCII),
/// integers by their digits (one push for a single digit): what a program tuned by hand
/// does.
struct Tuned;

impl Tuned {
    /// Appends `s` cased: runs of ASCII copied and cased in place, other characters
    /// mapped one by one; a capital sigma, which lowers by its context, through
    /// `str::to_lowercase`.
    fn case(out: &mut String, s: &str, upper: bool) {
        if !upper && s.contains('Σ') {
            out.push_str(&s.to_lowercase());
            return;
        }
        let mut rest = s;
        while !rest.is_empty() {
            let ascii = rest
                .bytes()
                .position(|b| !b.is_ascii())
                .unwrap_or(rest.len());
            let (run, tail) = rest.split_at(ascii);
            let start = out.len();
            out.push_str(run);
            if upper {
                out[start..].make_ascii_uppercase();
            } else {
                out[start..].make_ascii_lowercase();
            }
            let mut chars = tail.chars();
            let Some(c) = chars.next() else { break };
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
            rest = chars.as_str();
        }
    }
}

impl Style for Tuned {
    fn upper(out: &mut String, s: &str) {
        Tuned::case(out, s, true);
    }
    fn lower(out: &mut String, s: &str) {
        Tuned::case(out, s, false);
    }
    fn int(out: &mut String, mut n: u64) {
        if n < 10 {
            out.push(char::from(b'0' + n as u8));
            return;
        }
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        while n > 0 {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
    }
}

/// Every piece of the analyst prompt, pushed in order.
fn push_all<S: Style>(a: &Analyst<'_>, out: &mut String) {
    let (locale, name, detailed, tone, notes, max_steps, many) = pieces(a);
    out.push_str(A_HEAD);
    out.push_str(a.desk);
    out.push_str(". Today is ");
    out.push_str(a.date);
    if let Some(l) = locale {
        out.push_str(" (");
        out.push_str(l);
        out.push(')');
    }
    out.push_str(".\nYou answer ");
    out.push_str(name);
    out.push_str(", who follows ");
    for (i, m) in a.markets.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(m);
    }
    out.push_str(".\n\n");
    out.push_str(A_METHOD_1);
    if let Some(l) = locale {
        out.push_str(", formatted for ");
        out.push_str(l);
    }
    out.push_str(A_METHOD_2);
    if detailed {
        out.push_str(A_COACHING);
    }
    out.push_str(A_STYLE_1);
    out.push_str(tone);
    out.push_str(A_STYLE_2);
    S::int(out, u64::from(a.precision.unwrap_or(2)));
    out.push_str(A_STYLE_3);
    out.push_str("\n## Tools\n\n");
    let mut count = 0;
    for (i, t) in a.tools.iter().filter(|t| !t.retired).enumerate() {
        count += 1;
        S::int(out, (i + 1) as u64);
        out.push_str(". **");
        out.push_str(t.name);
        out.push_str("** (");
        S::upper(out, t.kind);
        out.push(')');
        if t.slow {
            out.push_str(", slow: batch your calls");
        }
        if let Some(c) = t.cost {
            out.push_str(", ");
            S::int(out, u64::from(c));
            out.push_str(" credits a call");
        }
        out.push('\n');
    }
    if count == 0 {
        out.push_str(A_NO_TOOLS);
    }
    out.push_str("\n## Limits\n\n");
    let last = a.limits.len();
    for (i, (k, v)) in a.limits.iter().enumerate() {
        out.push_str("- ");
        out.push_str(k);
        out.push_str(": ");
        S::int(out, u64::from(*v));
        if i + 1 == last {
            out.push_str(" (checked last)");
        }
        out.push('\n');
    }
    out.push_str("Stop after ");
    S::int(out, u64::from(max_steps));
    out.push_str(" steps");
    if let Some(n) = notes {
        out.push_str("; remember: ");
        out.push_str(py_trim(n));
    }
    out.push_str(".\n");
    out.push_str(A_CLOSING);
    if many {
        out.push_str("You have ");
        S::int(out, a.tools.len() as u64);
        out.push_str(" tools; reach for the cheapest one that answers.\n");
    }
    out.push_str("Check the date (");
    out.push_str(a.date);
    out.push_str("), the desk (");
    S::lower(out, a.desk);
    out.push_str("), and that every figure names its source.\n");
}

pub const ANALYST_FILES: [(&str, &str); 4] = [
    (
        "agents/analyst.md.j2",
        include_str!("../prompts/agents/analyst.md.j2"),
    ),
    (
        "components/analyst/method.md.j2",
        include_str!("../prompts/components/analyst/method.md.j2"),
    ),
    (
        "components/analyst/style.md.j2",
        include_str!("../prompts/components/analyst/style.md.j2"),
    ),
    (
        "components/analyst/closing.md.j2",
        include_str!("../prompts/components/analyst/closing.md.j2"),
    ),
];
