//! The prompt the render benches time, `prompts/weekly_review.md` (about 3 KB of text, 15
//! substitutions: 7 context fields, identity keys including uppercase-first variants, and
//! the `daily_preamble` template with 7 of its own), as a derived struct, and every
//! hand-written way of rendering it. Shared by `render.rs` (criterion: time) and
//! `render_instructions.rs` (callgrind: instructions); see `render.rs` for what each way
//! is.

use askama::Template;
use prompt_runtime::check::CheckedPrompt;
use prompt_runtime::load::Project;
use prompt_runtime::resolve::{ContextVar, VarKind};
use promptic::Identity;
use promptic::identity::KeySlots;
use std::collections::HashMap;
use std::path::Path;

#[derive(promptic::Prompt)]
#[prompt("weekly_review")]
pub(crate) struct WeeklyReview<'a> {
    pub(crate) day: &'a str,
    pub(crate) week_start: &'a str,
    pub(crate) week_end: &'a str,
    pub(crate) highlights: &'a str,
    pub(crate) open_loops: &'a str,
    pub(crate) mood_trend: &'a str,
    pub(crate) focus_hours: &'a str,
}

pub(crate) const CONTEXT: WeeklyReview<'static> = WeeklyReview {
    day: "Sunday 12 April 2026",
    week_start: "Monday 6 April",
    week_end: "Sunday 12 April",
    highlights: "- Shipped the new onboarding flow to the first twenty beta users on Tuesday; \
                 three wrote back the same day.\n\
                 - Ran 21 km on Saturday, the longest run since January.\n\
                 - Finished chapter 6 of the Korean textbook and held a ten-minute \
                 conversation with Min-ji without switching to English.\n\
                 - Wednesday's design critique settled the colour system after three weeks \
                 of going back and forth.",
    open_loops: "- Reply to the investor update questions from Priya (open since 30 March).\n\
                 - Decide whether to take the conference talk in May.\n\
                 - Book the dentist.\n\
                 - Write up the usability findings for the sensor dashboard.\n\
                 - Ask Sam about the shared calendar for the summer.",
    mood_trend: "good Monday and Tuesday, a dip on Thursday after the long planning meeting, \
                 calm and content over the weekend",
    focus_hours: "about 14 (Mon 3, Tue 4, Wed 2.5, Thu 1, Fri 3.5)",
};

/// The prompt's text between substitutions, written out by hand from
/// `prompts/templates/daily_preamble.md` and `prompts/weekly_review.md` (frontmatter left
/// out, bodies stripped). `limit` puts a value after each piece but the last.
pub(crate) const PIECES: [&str; 22] = [
    // daily_preamble
    "You are reviewing one full day in the journal of ",
    ", recorded on ",
    ".\n\nThe journal is a personal record that ",
    " keeps for ",
    ": screen activity, meeting transcripts, quick voice memos and typed notes, captured \
     throughout the day. All times are local to ",
    ".\n\nWhile you read:\n\n- Write for ",
    ", in plain second person (\"you met with...\"), not about a stranger.\n- ",
    " own words outrank your inferences; when the two disagree, trust the note.\n\
     - Keep to what the material shows. Say so when something is unclear instead of \
     guessing.\n\n\
     # Weekly Review\n\n\
     Today is ",
    // weekly_review
    ", the end of the week that ran from ",
    " to ",
    ". Instead of a single day, you are looking back over all seven daily pages, together \
     with a few figures the journal has gathered for the week. Your job is to help ",
    " see the week as a whole: what moved forward, what stalled, and what deserves \
     attention next.\n\n\
     ## Material for this week\n\n\
     **Highlights the journal picked out:**\n\n",
    "\n\n**Open loops (commitments and questions not yet closed):**\n\n",
    "\n\n**Mood over the week:** ",
    "\n\n**Hours of focused work:** ",
    "\n\n## How to write the review\n\n\
     Write in a warm, direct voice, as a thoughtful friend who has read the whole week and \
     has no reason to flatter. Address ",
    " by name once, near the start, and then simply say \"you\".\n\n\
     1. **The week in one paragraph.** Describe the overall shape of the week in four or \
     five sentences. Mention the days that stood out and why. Avoid a day-by-day list; the \
     daily pages already exist.\n\
     2. **What went well.** Pick two or three of the highlights and explain why they \
     mattered, connecting them to ",
    " larger goals where the journal makes those goals clear.\n\
     3. **What is still open.** Go through the open loops. Group related ones, flag \
     anything that has been open for more than a week, and for each group suggest one \
     concrete next step small enough to do in under thirty minutes.\n\
     4. **Energy and focus.** Relate the mood trend to the focus hours. Look for patterns: \
     did the better days follow mornings of deep work, or evenings off? Did the harder days \
     cluster around meetings or travel? Offer at most two observations, each backed by \
     something specific from the week.\n\
     5. **One thing for next week.** End with a single suggestion, phrased as something ",
    " could try, not an order. It should follow naturally from the rest of the review.\n\n\
     ## Ground rules\n\n\
     - Use only what the daily pages and the figures above show. Do not invent events, \
     people or feelings.\n\
     - Treat the mood trend as ",
    "'s own report of how the week felt, not as a diagnosis. Never comment on mental \
     health beyond what ",
    " wrote.\n\
     - Numbers should be rounded and human: \"about twelve hours\", not \"11.83 h\".\n\
     - If the week was light on material (a holiday, a sick week), say so kindly and keep \
     the review short.\n\
     - Leave out anything marked private in the daily pages.\n\
     - When two sources disagree, prefer the daily page written closest to the event, and \
     mention the disagreement only if it changes the picture.\n\n\
     ## Format\n\n\
     Use Markdown with the five numbered sections as level-two headings, in the order \
     above. Keep the whole review between 350 and 550 words. Do not add a title, a sign-off \
     or a summary of these instructions; the journal places the review on the page for ",
    " under its own heading.",
];

pub(crate) const PIECES_LEN: usize = {
    let mut total = 0;
    let mut i = 0;
    while i < PIECES.len() {
        total += PIECES[i].len();
        i += 1;
    }
    total
};

/// Every value the prompt uses as a plain `&str` field: the context's and the identity's.
/// The askama template renders this struct too.
#[derive(Template)]
#[template(path = "weekly_review.txt", escape = "none")]
pub(crate) struct Values<'a> {
    pub(crate) day: &'a str,
    pub(crate) week_start: &'a str,
    pub(crate) week_end: &'a str,
    pub(crate) highlights: &'a str,
    pub(crate) open_loops: &'a str,
    pub(crate) mood_trend: &'a str,
    pub(crate) focus_hours: &'a str,
    pub(crate) preferred: &'a str,
    pub(crate) preferred_upper: &'a str,
    pub(crate) pronouns_reflexive: &'a str,
    pub(crate) pronouns_possessive: &'a str,
    pub(crate) pronouns_possessive_upper: &'a str,
    pub(crate) timezone: &'a str,
}

impl<'a> Values<'a> {
    /// The context's values and the identity's, each identity key looked up by name once
    /// (`Identity::get`, a `HashMap` lookup).
    pub(crate) fn new(c: &WeeklyReview<'a>, identity: &'a Identity) -> Self {
        let get = |key| identity.get(key).unwrap_or("");
        Values {
            preferred: get("preferred"),
            preferred_upper: get("Preferred"),
            pronouns_reflexive: get("pronouns_reflexive"),
            pronouns_possessive: get("pronouns_possessive"),
            pronouns_possessive_upper: get("Pronouns_possessive"),
            timezone: get("timezone"),
            ..Values::context(c)
        }
    }

    /// The context's values and the identity's, each identity value taken from where the
    /// derive reads it (its slot in `identity`, `KeySlots`), so that a way handed these
    /// fields copies the very bytes the derive copies.
    pub(crate) fn handed(c: &WeeklyReview<'a>, identity: &'a Identity) -> Self {
        let [
            preferred,
            preferred_upper,
            pronouns_reflexive,
            pronouns_possessive,
            pronouns_possessive_upper,
            timezone,
        ] = IDENTITY_KEYS.values(identity);
        Values {
            preferred,
            preferred_upper,
            pronouns_reflexive,
            pronouns_possessive,
            pronouns_possessive_upper,
            timezone,
            ..Values::context(c)
        }
    }

    /// The context's values; the identity's left empty.
    pub(crate) fn context(c: &WeeklyReview<'a>) -> Self {
        Values {
            day: c.day,
            week_start: c.week_start,
            week_end: c.week_end,
            highlights: c.highlights,
            open_loops: c.open_loops,
            mood_trend: c.mood_trend,
            focus_hours: c.focus_hours,
            preferred: "",
            preferred_upper: "",
            pronouns_reflexive: "",
            pronouns_possessive: "",
            pronouns_possessive_upper: "",
            timezone: "",
        }
    }
}

/// The prompt's identity names, as the derive lists them (`KeySlots`: each name numbered
/// once per process, then one load per value).
pub(crate) static IDENTITY_KEYS: KeySlots<6> = KeySlots::new([
    "preferred",
    "Preferred",
    "pronouns_reflexive",
    "pronouns_possessive",
    "Pronouns_possessive",
    "timezone",
]);

/// The identity values by slot, as the derive reaches them (`KeySlots`: each name
/// numbered once per process, then one load per value), then the limit.
pub(crate) fn hand_written_slots(c: &WeeklyReview<'_>, identity: &Identity) -> String {
    limit(&Values::handed(c, identity))
}

/// One `push_str` per argument, written out (no loop over an array of pieces).
macro_rules! push_all {
    ($out:ident, $($piece:expr),* $(,)?) => {
        $($out.push_str($piece);)*
    };
}

/// The true limit: no lookups, exact length, one allocation, copies.
pub(crate) fn limit(v: &Values<'_>) -> String {
    let [
        p0,
        p1,
        p2,
        p3,
        p4,
        p5,
        p6,
        p7,
        p8,
        p9,
        p10,
        p11,
        p12,
        p13,
        p14,
        p15,
        p16,
        p17,
        p18,
        p19,
        p20,
        p21,
    ] = PIECES;
    let len = PIECES_LEN
        + 7 * v.preferred.len()
        + v.preferred_upper.len()
        + v.pronouns_reflexive.len()
        + v.pronouns_possessive.len()
        + v.pronouns_possessive_upper.len()
        + v.timezone.len()
        + 2 * v.day.len()
        + v.week_start.len()
        + 2 * v.week_end.len()
        + v.highlights.len()
        + v.open_loops.len()
        + v.mood_trend.len()
        + v.focus_hours.len();
    let mut out = String::with_capacity(len);
    push_all!(
        out,
        p0,
        v.preferred,
        p1,
        v.day,
        p2,
        v.preferred,
        p3,
        v.pronouns_reflexive,
        p4,
        v.timezone,
        p5,
        v.preferred,
        p6,
        v.pronouns_possessive_upper,
        p7,
        v.day,
        p8,
        v.week_start,
        p9,
        v.week_end,
        p10,
        v.preferred,
        p11,
        v.highlights,
        p12,
        v.open_loops,
        p13,
        v.mood_trend,
        p14,
        v.focus_hours,
        p15,
        v.preferred,
        p16,
        v.pronouns_possessive,
        p17,
        v.preferred,
        p18,
        v.preferred_upper,
        p19,
        v.preferred,
        p20,
        v.week_end,
        p21,
    );
    out
}

/// A hand-written renderer with the derive's signature: the identity values looked up by
/// name once each, then the limit.
pub(crate) fn hand_written(c: &WeeklyReview<'_>, identity: &Identity) -> String {
    limit(&Values::new(c, identity))
}

/// `format!` over the same pieces and values.
pub(crate) fn with_format(v: &Values<'_>) -> String {
    let [
        p0,
        p1,
        p2,
        p3,
        p4,
        p5,
        p6,
        p7,
        p8,
        p9,
        p10,
        p11,
        p12,
        p13,
        p14,
        p15,
        p16,
        p17,
        p18,
        p19,
        p20,
        p21,
    ] = PIECES;
    let Values {
        day,
        week_start,
        week_end,
        highlights,
        open_loops,
        mood_trend,
        focus_hours,
        preferred,
        preferred_upper,
        pronouns_reflexive: reflexive,
        pronouns_possessive: possessive,
        pronouns_possessive_upper: possessive_upper,
        timezone,
    } = v;
    format!(
        "{p0}{preferred}{p1}{day}{p2}{preferred}{p3}{reflexive}{p4}{timezone}{p5}{preferred}\
         {p6}{possessive_upper}{p7}{day}{p8}{week_start}{p9}{week_end}{p10}{preferred}\
         {p11}{highlights}{p12}{open_loops}{p13}{mood_trend}{p14}{focus_hours}{p15}{preferred}\
         {p16}{possessive}{p17}{preferred}{p18}{preferred_upper}{p19}{preferred}{p20}{week_end}\
         {p21}"
    )
}

/// The prompt opened and checked at run time (the folder the derive read: the project's
/// `prompts/`, see `build.rs`), and the context's values by name.
pub(crate) fn run_time(context: &WeeklyReview<'_>) -> (CheckedPrompt, HashMap<String, String>) {
    let dir = Path::new(env!("PROMPTIC_MANIFEST_DIR")).join("prompts");
    let project = Project::open(&dir, "prompts").expect("the prompts folder opens");
    let vars = named(context)
        .iter()
        .map(|(name, _)| ContextVar::new(*name, VarKind::Text))
        .collect();
    let checked = project
        .check("weekly_review", vars)
        .expect("weekly_review checks");
    (checked, context_values(context))
}

/// The context's values by name, as the run-time renderer takes them.
pub(crate) fn context_values(context: &WeeklyReview<'_>) -> HashMap<String, String> {
    named(context)
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

fn named<'a>(context: &WeeklyReview<'a>) -> [(&'static str, &'a str); 7] {
    [
        ("day", context.day),
        ("week_start", context.week_start),
        ("week_end", context.week_end),
        ("highlights", context.highlights),
        ("open_loops", context.open_loops),
        ("mood_trend", context.mood_trend),
        ("focus_hours", context.focus_hours),
    ]
}
