//! `promptic diff`: one prompt rendered twice, with two sets of values, as a unified line
//! diff from the first render (A) to the second (B), then both token counts.
//!
//! `--guidance` is the case LangAlpha's `render_prompt.py --diff` serves: A is the prompt at
//! `guidance=detailed`, B at `guidance=lean`, so the `-` lines are the coaching that lean
//! drops. Lean must be a subset of detailed: a `+` line renders at lean only. One that a
//! registered either-or (`{% else "why" %}`) renders is listed as registered; any other is
//! an error on stderr, and the exit code is 1. `--a NAME=VALUE` and `--b NAME=VALUE`
//! compare any other values (a flag, a choice), each side's values on top of the shared
//! render options.
//!
//! A chat prompt is compared in its log form (each message under its `Section:` header),
//! and its tokens are those of its message contents, summed, as `promptic tokens` counts
//! them.

use crate::style::Style;
use crate::tokens::Encoding;
use crate::values::{self, Extra, RenderOptions, Rendered};
use crate::{Outcome, open_project};
use clap::{ArgGroup, Args};
use prompt_runtime::guidance::GUIDANCE;
use prompt_runtime::{Diagnostic, Diagnostics, Guidance};
use similar::{ChangeTag, TextDiff};
use std::path::Path;
use std::process::ExitCode;

/// Lines of context around each change, as `diff -u` and git show.
const CONTEXT_LINES: usize = 3;

#[derive(Debug, Args)]
#[command(group(
    ArgGroup::new("sides")
        .required(true)
        .multiple(true)
        .args(["guidance", "a", "b"])
))]
pub struct DiffArgs {
    #[command(flatten)]
    pub options: RenderOptions,

    /// Compare the prompt at `guidance=detailed` (A) with `guidance=lean` (B); exit 1 if
    /// lean renders a line that detailed does not and no either-or registers.
    #[arg(long, conflicts_with_all = ["a", "b"])]
    pub guidance: bool,

    /// A value for the A side only, on top of `--set` and `--context`. Repeat for more.
    #[arg(long = "a", value_name = "NAME=VALUE", value_parser = values::parse_set)]
    pub a: Vec<(String, String)>,

    /// A value for the B side only, on top of `--set` and `--context`. Repeat for more.
    #[arg(long = "b", value_name = "NAME=VALUE", value_parser = values::parse_set)]
    pub b: Vec<(String, String)>,

    /// The BPE encoding the token counts use.
    #[arg(long, value_enum, default_value_t = Encoding::O200kBase)]
    pub encoding: Encoding,
}

/// One of the two renders: what it is called and the values only it gets.
struct Side {
    /// `detailed`, `lean`, `A` or `B`: in the token line.
    name: &'static str,
    /// The flag its values come from, for messages.
    flag: &'static str,
    values: Vec<(String, String)>,
}

impl Side {
    fn extra(&self) -> Extra<'_> {
        Extra {
            flag: self.flag,
            values: &self.values,
        }
    }

    /// The side in its `---`/`+++` header: the prompt and the values it alone gets.
    fn header(&self, prompt: &str, guidance: bool) -> String {
        let prompt = crate::style::shown(prompt);
        let shown: Vec<String> = self
            .values
            .iter()
            .map(|(k, v)| crate::style::shown(&pair(k, v)).into_owned())
            .collect();
        if guidance {
            format!("{prompt} ({})", shown.join(" "))
        } else if shown.is_empty() {
            format!("{prompt} ({}: the shared values)", self.name)
        } else {
            format!("{prompt} ({}: {})", self.name, shown.join(" "))
        }
    }
}

/// `name=value`, the value quoted when a shell would need it to stay one word.
fn pair(name: &str, value: &str) -> String {
    if value.is_empty() || value.contains(char::is_whitespace) || value.contains('"') {
        format!("{name}={value:?}")
    } else {
        format!("{name}={value}")
    }
}

pub fn run(dir: &Path, args: &DiffArgs) -> Outcome {
    let project = open_project(dir)?;
    crate::eprint_folder_warnings(&project, &[]);
    // A family's member is chosen once, so both sides render the same prompt.
    let member = values::chosen(&project, &args.options)?;
    let options = &RenderOptions {
        name: member.clone(),
        tag: Vec::new(),
        item_id: None,
        ..args.options.clone()
    };
    let prompt = member.as_str();
    let (a, b, fenced) = if args.guidance {
        if let Some((_, value)) = options.set.iter().find(|(k, _)| k == GUIDANCE) {
            return Err(Diagnostic::new(format!(
                "`--guidance` gives `guidance` to each side, so `--set guidance={value}` would be overridden"
            ))
            .with_help("drop `--set guidance=...`; to compare other values, use `--a NAME=VALUE --b NAME=VALUE`")
            .into());
        }
        // A prompt that never names `guidance` takes no such value; both sides then render
        // the same.
        let fenced = values::uses(&project, options, GUIDANCE)?;
        let level = |level: Guidance| Side {
            name: level.as_str(),
            flag: "--guidance",
            values: if fenced {
                vec![(GUIDANCE.to_owned(), level.to_string())]
            } else {
                Vec::new()
            },
        };
        // A, with every fence open, then B, with the detailed fences closed.
        (level(Guidance::Detailed), level(Guidance::Lean), fenced)
    } else {
        let side = |name, flag, values: &[(String, String)]| Side {
            name,
            flag,
            values: values.to_vec(),
        };
        (side("A", "--a", &args.a), side("B", "--b", &args.b), true)
    };
    let (first, second) = render_both(&project, options, &a, &b)?;
    let tokenizer = args.encoding.load()?;
    let tokens = (
        tokenizer.count(&first.contents()),
        tokenizer.count(&second.contents()),
    );
    let diff = LineDiff::new(
        &terminated(first.log()),
        &terminated(second.log()),
        &a.header(prompt, args.guidance),
        &b.header(prompt, args.guidance),
    );
    let mut out = if !fenced {
        "no guidance fences: lean and detailed are the same\n".to_owned()
    } else if diff.is_empty() {
        format!("{} and {} render the same\n", a.name, b.name)
    } else {
        diff.paint(Style::stdout())
    };
    out.push_str(&token_line(a.name, b.name, tokens));
    // At lean, a registered either-or (`{% else "why" %}`) renders lines detailed lacks on
    // purpose; only the lines that remain with those branches muted are lean's mistakes.
    let mut unregistered = 0;
    if args.guidance && diff.inserted > 0 {
        let (prompt, values) = values::prepare(&project, options, b.extra())?;
        let (muted, reasons) = match prompt.without_either_ors() {
            Some((muted, reasons)) => (values::rendered(muted.as_ref(), &values)?, reasons),
            None => (values::rendered(prompt.as_ref(), &values)?, Vec::new()),
        };
        unregistered = LineDiff::new(&terminated(first.log()), &terminated(muted.log()), "", "")
            .inserted
            .min(diff.inserted);
        let registered = diff.inserted - unregistered;
        if registered > 0 {
            out.push_str(&registered_lines(registered, &reasons));
        }
    }
    crate::print_stdout(&out)?;
    if unregistered > 0 {
        let n = unregistered;
        return Err(Diagnostic::new(format!(
            "lean adds {n} line{} that detailed does not render and no either-or registers: lean must be a subset of detailed",
            if n == 1 { "" } else { "s" }
        ))
        .with_help(
            "only an inversion registered with `{% else \"why\" %}` on a `{% if guidance == \"detailed\" %}` fence may render a line at lean alone; a line from `$guidance` in the text, say, is not: move it inside the fence, or out of the fences for both levels",
        )
        .with_note("the `+` lines of the diff are what lean adds")
        .into());
    }
    Ok(ExitCode::SUCCESS)
}

/// Renders both sides; the problems of both, each once, if either fails.
fn render_both(
    project: &prompt_runtime::load::Project,
    options: &RenderOptions,
    a: &Side,
    b: &Side,
) -> Result<(Rendered, Rendered), Diagnostics> {
    let render = |side: &Side| values::render_with(project, options, side.extra());
    match (render(a), render(b)) {
        (Ok(first), Ok(second)) => Ok((first, second)),
        (first, second) => {
            let mut problems = Diagnostics::default();
            for d in [first.err(), second.err()].into_iter().flatten() {
                for d in d.0 {
                    if !problems.0.contains(&d) {
                        problems.push(d);
                    }
                }
            }
            Err(problems)
        }
    }
}

/// `lean adds 1 line, registered as an either-or:` and each registration as written.
/// `reasons` are the registrations as the prompt writes them.
fn registered_lines(n: usize, reasons: &[String]) -> String {
    let mut out = if n == 1 {
        "lean adds 1 line, registered as an either-or:\n".to_owned()
    } else if reasons.len() == 1 {
        format!("lean adds {n} lines, registered as an either-or:\n")
    } else {
        format!("lean adds {n} lines, registered as either-ors:\n")
    };
    for registration in reasons {
        out.push_str(&format!("  {registration}\n"));
    }
    out
}

/// The text with a final newline, so that the last line compares as any other and the
/// diff never needs a "no newline at end of file" marker.
fn terminated(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// `detailed: 812 tokens | lean: 530 tokens | lean drops 282 tokens (34.7%)`, the share
/// taken of the first side's count.
fn token_line(first: &str, second: &str, (a, b): (usize, usize)) -> String {
    let change = if b <= a {
        let pct = if a == 0 {
            0.0
        } else {
            (a - b) as f64 * 100.0 / a as f64
        };
        format!("{second} drops {} ({pct:.1}%)", tokens(a - b))
    } else if a == 0 {
        format!("{second} adds {}", tokens(b - a))
    } else {
        let pct = (b - a) as f64 * 100.0 / a as f64;
        format!("{second} adds {} ({pct:.1}%)", tokens(b - a))
    };
    format!(
        "{first}: {} | {second}: {} | {change}\n",
        tokens(a),
        tokens(b)
    )
}

fn tokens(n: usize) -> String {
    if n == 1 {
        "1 token".to_owned()
    } else {
        format!("{n} tokens")
    }
}

/// What a line of a unified diff is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// `--- A` or `+++ B`.
    Header,
    /// `@@ -l,n +l,n @@`.
    Hunk,
    /// A line both sides have, around a change.
    Context,
    /// A line only A has.
    Deleted,
    /// A line only B has.
    Inserted,
}

/// A unified line diff, line by line, ready to print.
#[derive(Debug, PartialEq, Eq)]
struct LineDiff {
    lines: Vec<(Line, String)>,
    /// How many lines only B has.
    inserted: usize,
}

impl LineDiff {
    /// The diff from `a` to `b` (each ending in a newline), headed by their names.
    fn new(a: &str, b: &str, a_name: &str, b_name: &str) -> LineDiff {
        let text_diff = TextDiff::from_lines(a, b);
        let mut lines = Vec::new();
        let mut inserted = 0;
        for hunk in text_diff
            .unified_diff()
            .context_radius(CONTEXT_LINES)
            .iter_hunks()
        {
            if lines.is_empty() {
                lines.push((Line::Header, format!("--- {a_name}")));
                lines.push((Line::Header, format!("+++ {b_name}")));
            }
            lines.push((Line::Hunk, hunk.header().to_string()));
            for change in hunk.iter_changes() {
                let (kind, sign) = match change.tag() {
                    ChangeTag::Equal => (Line::Context, ' '),
                    ChangeTag::Delete => (Line::Deleted, '-'),
                    ChangeTag::Insert => {
                        inserted += 1;
                        (Line::Inserted, '+')
                    }
                };
                let text = change.value();
                let text = text.strip_suffix('\n').unwrap_or(text);
                lines.push((kind, format!("{sign}{text}")));
            }
        }
        LineDiff { lines, inserted }
    }

    fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The diff as text, each line in its color when `style` paints.
    fn paint(&self, style: Style) -> String {
        let mut out = String::new();
        for (kind, text) in &self.lines {
            let line = match kind {
                Line::Header => style.diff_header(text),
                Line::Hunk => style.hunk(text),
                Line::Context => text.clone(),
                Line::Deleted => style.deleted(text),
                Line::Inserted => style.inserted(text),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{LineDiff, pair, token_line};

    fn plain(a: &str, b: &str) -> (String, usize) {
        let diff = LineDiff::new(a, b, "A", "B");
        (diff.paint(crate::style::Style::plain()), diff.inserted)
    }

    #[test]
    fn a_dropped_block_is_one_hunk_of_minus_lines_with_context() {
        let (text, inserted) = plain("1\n2\n3\n4\nx\ny\n5\n6\n7\n8\n", "1\n2\n3\n4\n5\n6\n7\n8\n");
        assert_eq!(
            text,
            "--- A\n+++ B\n@@ -2,8 +2,6 @@\n 2\n 3\n 4\n-x\n-y\n 5\n 6\n 7\n"
        );
        assert_eq!(inserted, 0);
    }

    #[test]
    fn far_apart_changes_are_separate_hunks_and_insertions_are_counted() {
        let a: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let b: String = (1..=20)
            .filter(|&i| i != 18)
            .map(|i| {
                if i == 2 {
                    "two\n".to_owned()
                } else {
                    format!("{i}\n")
                }
            })
            .collect();
        let (text, inserted) = plain(&a, &b);
        assert_eq!(
            text,
            "--- A\n+++ B\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -15,6 +15,5 @@\n 15\n 16\n 17\n-18\n 19\n 20\n"
        );
        assert_eq!(inserted, 1);
    }

    #[test]
    fn equal_texts_have_no_diff() {
        assert!(LineDiff::new("a\n", "a\n", "A", "B").is_empty());
    }

    #[test]
    fn the_token_line_gives_the_saving_as_a_share_of_the_first_side() {
        assert_eq!(
            token_line("detailed", "lean", (812, 530)),
            "detailed: 812 tokens | lean: 530 tokens | lean drops 282 tokens (34.7%)\n"
        );
        assert_eq!(
            token_line("A", "B", (10, 11)),
            "A: 10 tokens | B: 11 tokens | B adds 1 token (10.0%)\n"
        );
        assert_eq!(
            token_line("A", "B", (0, 0)),
            "A: 0 tokens | B: 0 tokens | B drops 0 tokens (0.0%)\n"
        );
        assert_eq!(
            token_line("A", "B", (0, 3)),
            "A: 0 tokens | B: 3 tokens | B adds 3 tokens\n"
        );
    }

    #[test]
    fn header_values_stay_one_word_each() {
        assert_eq!(pair("day", "Mon"), "day=Mon");
        assert_eq!(pair("note", "an umbrella"), "note=\"an umbrella\"");
        assert_eq!(pair("note", ""), "note=\"\"");
    }
}
