#!/usr/bin/env python3
"""What does #[derive(Prompt)] cost at build time, per prompt?

Generates, in a temporary directory outside the repository, a cargo workspace with two
crates that depend on promptic by path:

- `derive_prompts`: N prompt files (1-3 KB of Markdown each, 7-13 placeholders mixing
  context fields, identity keys, an uppercase-first variant, one of two shared templates
  and an `{% if note %}` block over an `Option<&str>` field) and one `#[derive(Prompt)]`
  struct per prompt;
- `baseline_prompts`: the same N structs with hand-written `render` methods of the same
  shape (identity looked up once, exact length, one allocation, `push_str`s), no macro.

Then, with `cargo build` (debug, incremental and full debug information as cargo sets them
by default: `CARGO_INCREMENTAL`, `CARGO_PROFILE_*`, `RUSTFLAGS` and `RUSTC_WRAPPER` are
removed from the builds' environment) and a target directory inside the temporary
directory, it times:

1. a clean build of each crate alone: dependencies are built first, then
   `cargo clean -p <crate>` and the crate is rebuilt, so promptic, syn and the other
   dependencies are not counted;
2. an edit: a sentence appended to one template, and to one prompt, then a rebuild. For
   the baseline the same text lives in `src/lib.rs`, so the same edit is made there.

Each measurement is repeated (3 times by default) and the median kept.

    python3 benches/build_time.py            # 200 prompts, 3 runs each
    python3 benches/build_time.py --prompts 50 --runs 1 --keep
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

IDENTITY = {
    "name": "Jordan Lee",
    "preferred": "Jordan",
    "bio": "product designer at a small climate-tech startup",
    "timezone": "America/Los_Angeles",
    "pronouns": {
        "subject": "she",
        "object": "her",
        "possessive": "her",
        "reflexive": "herself",
    },
}

# A prompt is a list of blocks; a block is a list of parts:
#   ("text", s)  ("ctx", field, upper)  ("id", key)  ("tpl", name)
# and an `{% if note %}` block is ("if", parts).

TEMPLATES = {
    "preamble_a": [
        ("text", "You are reading one day of the journal of "),
        ("id", "preferred"),
        ("text", ", recorded on "),
        ("ctx", "day", False),
        ("text", ". The journal is a personal record that "),
        ("id", "preferred"),
        ("text", " keeps for "),
        ("id", "pronouns_reflexive"),
        ("text", ": screen activity, meeting transcripts, voice memos and typed notes, "
                 "captured throughout the day. All times are local to "),
        ("id", "timezone"),
        ("text", ".\n\nWhile you read:\n\n- Write for the person, in plain second person "
                 "(\"you met with...\"), not about a stranger.\n- Keep to what the material "
                 "shows. Say so when something is unclear instead of guessing."),
    ],
    "preamble_b": [
        ("text", "This task is part of "),
        ("id", "name"),
        ("text", "'s journal for "),
        ("ctx", "day", False),
        ("text", ". "),
        ("id", "Pronouns_subject"),
        ("text", " reads what you write later, usually on a phone, so keep paragraphs short "
                 "and lead with what matters.\n\nThe journal gathers screen captures, audio "
                 "transcripts and notes; not every source is present every day. Use what is "
                 "there, name what is missing when it matters, and never invent events, people "
                 "or feelings. Times are local to "),
        ("id", "timezone"),
        ("text", "."),
    ],
}

FIELDS = [
    "topic", "project", "meeting", "location", "goal", "blocker", "team", "deadline",
    "source", "channel", "segment_start", "segment_end", "week_start", "mood", "metric",
    "habit", "client", "language", "book", "trip",
]

FIELD_SENTENCES = [
    "The material for this task covers {}.",
    "Pay particular attention to anything related to {}.",
    "Start from {} and work outwards from there.",
    "If {} comes up more than once, group those mentions together.",
    "Treat {} as the main thread of the answer.",
    "Relate each point back to {} where the material allows it.",
    "Anything that contradicts {} deserves a short explanation.",
]

IDENTITY_SENTENCES = [
    [("text", "Write for "), ("id", "preferred"), ("text", ", in the second person.")],
    [("text", "Address "), ("id", "preferred"),
     ("text", " by name once, near the start, and then simply say \"you\".")],
    [("text", "Connect the points to "), ("id", "pronouns_possessive"),
     ("text", " own goals where the journal makes them clear.")],
    [("text", "Keep in mind who "), ("id", "name"), ("text", " is: "), ("id", "bio"),
     ("text", ".")],
    [("text", "Mention times in "), ("id", "timezone"), ("text", ", without the zone name.")],
]

VARIANT_SENTENCES = [
    [("id", "Preferred"), ("text", "'s own notes outrank your inferences.")],
    [("id", "Pronouns_subject"), ("text", " may skim this, so put the most useful line first.")],
]

FILLER = [
    "Keep the tone plain and friendly; the reader knows the context better than you do.",
    "Prefer concrete detail (names, files, topics) over vague labels such as \"worked on things\".",
    "If something is unclear from the material, say so in one line instead of guessing.",
    "Do not repeat these instructions or describe what you are about to do.",
    "Quote the material only when the exact words matter.",
    "Leave out anything marked private.",
    "Round numbers the way a person would say them aloud: \"about two hours\", not \"1.93 h\".",
    "Use Markdown headings only where the format below asks for them.",
    "When two sources disagree, trust the one recorded closest to the event.",
    "A short answer that is right beats a long one that hedges.",
    "Mention at most three items, and pick the ones with the most consequence.",
    "Skip greetings, sign-offs and summaries of what you just wrote.",
    "Screen captures show what was open, not necessarily what was read; weigh them accordingly.",
    "Audio transcripts contain recognition errors; fix obvious ones silently.",
    "A meeting with no notes and no transcript is still worth a line if it was on the calendar.",
    "Prefer the active voice and short sentences.",
    "Avoid judging how productive the day was; describe it.",
    "If the material is thin, a two-line answer is fine.",
]

HEADINGS = ["Material", "What to write", "Ground rules", "Format", "Sources", "Tone"]
TITLES = ["Review", "Summary", "Digest", "Synthesis", "Check-in", "Reflection", "Notes"]
SUBJECTS = ["Morning", "Evening", "Meeting", "Project", "Reading", "Travel", "Health",
            "Language", "Focus", "Team", "Client", "Weekly", "Habit", "Inbox"]

NOTE_BLOCK = ("if", [
    ("text", "- **Note from "), ("id", "preferred"), ("text", ":** \""),
    ("ctx", "note", False),
    ("text", "\". Treat this as the most reliable source for the task."),
])


def make_prompt(i, rng):
    """One prompt: its metadata, fields and blocks."""
    subject = SUBJECTS[i % len(SUBJECTS)]
    title = f"{subject} {TITLES[(i // len(SUBJECTS)) % len(TITLES)]} {i}"
    fields = rng.sample(FIELDS, rng.randint(2, 6))
    template = "preamble_a" if i % 2 == 0 else "preamble_b"
    target = rng.randint(1000, 3000)

    sentences = []  # each: a list of parts, to be placed in a paragraph or a bullet
    for f in fields:
        s = rng.choice(FIELD_SENTENCES)
        before, after = s.split("{}")
        sentences.append([("text", before), ("ctx", f, False), ("text", after)])
    upper_field = fields[0] if i % 3 == 0 else None
    if upper_field:
        sentences.append([("text", "Headline: "), ("ctx", upper_field, True),
                          ("text", ", in one line.")])
    else:
        sentences.append(rng.choice(VARIANT_SENTENCES))
    for s in rng.sample(IDENTITY_SENTENCES, rng.randint(1, 2)):
        sentences.append(s)
    rng.shuffle(sentences)

    blocks = [[("tpl", template)], [("text", f"# {title}")]]
    size = 700
    heading = 0
    while sentences or size < target:
        if rng.random() < 0.3 and heading < len(HEADINGS):
            blocks.append([("text", f"## {HEADINGS[heading]}")])
            heading += 1
        bullets = rng.random() < 0.5
        block = []
        fillers = rng.sample(FILLER, 4)
        for k in range(rng.randint(2, 4)):
            if sentences and rng.random() < 0.6:
                parts = sentences.pop()
            else:
                parts = [("text", fillers[k])]
            if block:
                block.append(("text", "\n" if bullets else " "))
            if bullets:
                block.append(("text", f"{k + 1}. " if heading % 2 else "- "))
            block.extend(parts)
            size += sum(len(p[1]) for p in parts if p[0] == "text") + 12
        blocks.append(block)
        if len(blocks) == 5:
            blocks.append([NOTE_BLOCK])
    if not any(b == [NOTE_BLOCK] for b in blocks):
        blocks.append([NOTE_BLOCK])
    meta = {
        "title": title,
        "description": f"Generated prompt {i} for the build-time benchmark.",
        "color": "#%02x%02x%02x" % (rng.randrange(256), rng.randrange(256), rng.randrange(256)),
        "max_output_tokens": rng.choice([1024, 2048, 4096]),
    }
    return {"name": f"p{i:03}", "struct": f"Prompt{i:03}", "meta": meta,
            "fields": ["day"] + fields, "blocks": blocks}


def with_edit(prompt, sentence):
    """The prompt with `sentence` appended to its last paragraph."""
    if not sentence:
        return prompt
    edited = dict(prompt)
    edited["blocks"] = prompt["blocks"] + [[("text", sentence)]]
    return edited


def templates_with_edit(name, sentence):
    edited = {k: list(v) for k, v in TEMPLATES.items()}
    if sentence:
        edited[name].append(("text", " " + sentence))
    return edited


# --- the derive crate -------------------------------------------------------------------


def markdown(parts):
    out = []
    for p in parts:
        if p[0] == "text":
            out.append(p[1])
        elif p[0] == "ctx":
            name = p[1]
            out.append("$" + (name[0].upper() + name[1:] if p[2] else name))
        elif p[0] in ("id", "tpl"):
            out.append("$" + p[1])
        elif p[0] == "if":
            out.append("{% if note %}\n" + markdown(p[1]) + "\n{% endif %}")
    return "".join(out)


def write_derive(root, prompts, templates):
    prompts_dir = root / "prompts"
    (prompts_dir / "templates").mkdir(parents=True, exist_ok=True)
    write(prompts_dir / "promptic.json",
          json.dumps({"identity": IDENTITY, "templates": "templates"}, indent=2) + "\n")
    for name, parts in templates.items():
        write(prompts_dir / "templates" / f"{name}.md", markdown(parts) + "\n")
    lines = ["//! Generated by promptic's benches/build_time.py.", "",
             "use promptic::Prompt;", ""]
    for p in prompts:
        body = "\n\n".join(markdown(b) for b in p["blocks"])
        write(prompts_dir / f"{p['name']}.md",
              json.dumps(p["meta"], indent=2) + "\n\n" + body + "\n")
        lines += ["#[derive(Prompt)]", f"#[prompt(\"{p['name']}\")]",
                  f"pub struct {p['struct']}<'a> {{"]
        lines += [f"    pub {f}: &'a str," for f in p["fields"]]
        lines += ["    pub note: Option<&'a str>,", "}", ""]
    write(root / "src" / "lib.rs", "\n".join(lines))


# --- the baseline crate -----------------------------------------------------------------


def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def ident(key):
    return "id_" + key.lower() + ("_upper" if key[0].isupper() else "")


def flatten(parts, templates):
    """Parts to pushes: ("lit", rust expr, const len expr) or ("val", rust expr) or ("if", pushes)."""
    out = []
    for p in parts:
        if p[0] == "text":
            if out and out[-1][0] == "lit" and out[-1][1].startswith('"'):
                merged = out[-1][3] + p[1]
                out[-1] = ("lit", rust_str(merged), str(len(merged.encode())), merged)
            elif p[1]:
                out.append(("lit", rust_str(p[1]), str(len(p[1].encode())), p[1]))
        elif p[0] == "ctx":
            if p[1] == "note":
                out.append(("val", "note"))
            elif p[2]:
                out.append(("val", f"&upper_{p[1]}"))
            else:
                out.append(("val", f"self.{p[1]}"))
        elif p[0] == "id":
            out.append(("val", ident(p[1])))
        elif p[0] == "tpl":
            const = p[1].upper()
            k = 0
            for q in templates[p[1]]:
                if q[0] == "text":
                    out.append(("lit", f"{const}[{k}]", f"{const}[{k}].len()", None))
                    k += 1
                else:
                    out.extend(flatten([q], templates))
        elif p[0] == "if":
            out.append(("if", flatten(p[1], templates)))
    return out


def keys_used(parts, templates, found):
    for p in parts:
        if p[0] == "id" and p[1] not in found:
            found.append(p[1])
        elif p[0] == "tpl":
            keys_used(templates[p[1]], templates, found)
        elif p[0] == "if":
            keys_used(p[1], templates, found)
    return found


def render_fn(p, templates):
    parts = []
    for b in p["blocks"]:
        if parts:
            parts.append(("text", "\n\n"))
        parts.extend(b)
    pushes = flatten(parts, templates)
    body = []
    for key in keys_used(parts, templates, []):
        body.append(f"        let {ident(key)} = identity.get({rust_str(key)}).unwrap_or(\"\");")
    for part in parts:
        if part[0] == "ctx" and part[2]:
            body.append(f"        let upper_{part[1]} = promptic::upper_first(self.{part[1]});")

    def measure(pushes, indent):
        consts = [x[2] for x in pushes if x[0] == "lit"]
        lines = [f"{indent}len += {' + '.join(consts) or '0'};"]
        for x in pushes:
            if x[0] == "val":
                lines.append(f"{indent}len += {x[1].lstrip('&')}.len();")
            elif x[0] == "if":
                lines.append(f"{indent}if let Some(note) = self.note {{")
                lines += measure(x[1], indent + "    ")
                lines.append(f"{indent}}}")
        return lines

    def write_(pushes, indent):
        lines = []
        for x in pushes:
            if x[0] in ("lit", "val"):
                lines.append(f"{indent}out.push_str({x[1]});")
            else:
                lines.append(f"{indent}if let Some(note) = self.note {{")
                lines += write_(x[1], indent + "    ")
                lines.append(f"{indent}}}")
        return lines

    body.append("        let mut len = 0;")
    body += measure(pushes, "        ")
    body.append("        let mut out = String::with_capacity(len);")
    body += write_(pushes, "        ")
    m = p["meta"]
    r, g, b = (int(m["color"][k:k + 2], 16) for k in (1, 3, 5))
    body += [
        "        PromptContent {",
        "            text: out,",
        f"            path: Cow::Borrowed(\"prompts/{p['name']}.md\"),",
        "            metadata: Cow::Borrowed({",
        "                static META: Meta = Meta {",
        f"                    title: Some(Cow::Borrowed({rust_str(m['title'])})),",
        f"                    description: Some(Cow::Borrowed({rust_str(m['description'])})),",
        f"                    color: Color::rgb({r}, {g}, {b}),",
        f"                    max_output_tokens: Some({m['max_output_tokens']}),",
        "                    ..Meta::DEFAULT",
        "                };",
        "                &META",
        "            }),",
        "        }",
    ]
    return body


def write_baseline(root, prompts, templates):
    lines = ["//! Generated by promptic's benches/build_time.py: hand-written renders, no macro.",
             "",
             "use promptic::{Color, Identity, Meta, PromptContent};",
             "use std::borrow::Cow;", ""]
    for name, parts in templates.items():
        texts = [rust_str(q[1]) for q in parts if q[0] == "text"]
        lines.append(f"const {name.upper()}: [&str; {len(texts)}] = [{', '.join(texts)}];")
    lines.append("")
    for p in prompts:
        lines.append(f"pub struct {p['struct']}<'a> {{")
        lines += [f"    pub {f}: &'a str," for f in p["fields"]]
        lines += ["    pub note: Option<&'a str>,", "}", "",
                  f"impl {p['struct']}<'_> {{",
                  "    pub fn render(&self, identity: &Identity) -> PromptContent {"]
        lines += render_fn(p, templates)
        lines += ["    }", "}", ""]
    write(root / "src" / "lib.rs", "\n".join(lines))


# --- measuring --------------------------------------------------------------------------


def write(path, text):
    """Writes `text` unless the file already holds it: an edit touches one file only."""
    if path.is_file() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def cargo_env(target):
    """The environment of a measured build: cargo's defaults (incremental for the workspace's
    own crates, full debug information), whatever the calling shell sets, and `target` as
    the target directory."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CARGO_PROFILE_")
           and k not in ("CARGO_INCREMENTAL", "CARGO_BUILD_JOBS", "RUSTFLAGS",
                         "CARGO_ENCODED_RUSTFLAGS", "RUSTC_WRAPPER", "PROMPTIC_MANIFEST_DIR")}
    env["CARGO_TARGET_DIR"] = str(target)
    return env


def cargo(args, cwd, env):
    result = subprocess.run(["cargo", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed:\n{result.stdout[-4000:]}")


def timed_build(krate, cwd, env):
    start = time.perf_counter()
    cargo(["build", "-q", "-p", krate], cwd, env)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prompts", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    n = args.prompts

    rng = random.Random(20260412)
    prompts = [make_prompt(i, rng) for i in range(n)]
    tmp = Path(tempfile.mkdtemp(prefix="promptic-build-time-"))
    env = cargo_env(tmp / "target")
    try:
        write(tmp / "Cargo.toml", '[workspace]\nmembers = ["derive_prompts", '
              '"baseline_prompts"]\nresolver = "3"\n')
        shutil.copy(REPO / "Cargo.lock", tmp / "Cargo.lock")
        for krate in ("derive_prompts", "baseline_prompts"):
            write(tmp / krate / "Cargo.toml",
                  f'[package]\nname = "{krate}"\nversion = "0.0.0"\nedition = "2024"\n'
                  f'publish = false\n\n[dependencies]\npromptic = {{ path = {json.dumps(str(REPO))} }}\n')
        derive_dir, baseline_dir = tmp / "derive_prompts", tmp / "baseline_prompts"
        write_derive(derive_dir, prompts, TEMPLATES)
        write_baseline(baseline_dir, prompts, TEMPLATES)
        total_kb = sum((derive_dir / "prompts" / f"{p['name']}.md").stat().st_size
                       for p in prompts) / 1024
        print(f"{n} prompts, {total_kb:.0f} KB of Markdown, in {tmp}", flush=True)

        print("building dependencies...", flush=True)
        cargo(["build", "-q", "-p", "derive_prompts", "-p", "baseline_prompts"], tmp, env)

        results = {}
        for krate in ("derive_prompts", "baseline_prompts"):
            runs = []
            for _ in range(args.runs):
                cargo(["clean", "-q", "-p", krate], tmp, env)
                runs.append(timed_build(krate, tmp, env))
            results[(krate, "clean")] = statistics.median(runs)
            print(f"  {krate} clean: {fmt_runs(runs)}", flush=True)

        # Edits: each run appends a different sentence, so the content really changes.
        edits = {"template": [], "prompt": []}
        for kind in edits:
            for krate, writer, cwd in (("derive_prompts", write_derive, derive_dir),
                                       ("baseline_prompts", write_baseline, baseline_dir)):
                runs = []
                for run in range(args.runs):
                    sentence = f"Edit number {run + 1} adds this sentence."
                    if kind == "template":
                        writer(cwd, prompts, templates_with_edit("preamble_a", sentence))
                    else:
                        edited = [with_edit(prompts[0], sentence)] + prompts[1:]
                        writer(cwd, edited, TEMPLATES)
                    runs.append(timed_build(krate, tmp, env))
                writer(cwd, prompts, TEMPLATES)
                cargo(["build", "-q", "-p", krate], tmp, env)
                results[(krate, kind)] = statistics.median(runs)
                print(f"  {krate} edit one {kind}: {fmt_runs(runs)}", flush=True)

        report(results, n, args.runs)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def fmt_runs(runs):
    return ", ".join(f"{r:.2f} s" for r in runs)


def verdict(value, target):
    return "met" if value <= target else "missed"


def report(results, n, runs):
    ms = 1000.0
    print()
    print(f"median of {runs} runs, cargo build (debug), {n} prompts, {os.cpu_count()} cores")
    print()
    print("| build | derive | per prompt | baseline | per prompt | marginal per prompt | target |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    targets = {"clean": 5.0, "template": 2.0, "prompt": 2.0}
    for kind, label in (("clean", "clean (crate only)"), ("template", "edit one template"),
                        ("prompt", "edit one prompt")):
        d = results[("derive_prompts", kind)]
        b = results[("baseline_prompts", kind)]
        marginal = (d - b) / n * ms
        target = targets[kind]
        print(f"| {label} | {d:.2f} s | {d / n * ms:.1f} ms | {b:.2f} s | {b / n * ms:.1f} ms "
              f"| {marginal:.1f} ms | <= {target:.0f} ms: per prompt {verdict(d / n * ms, target)}, "
              f"marginal {verdict(marginal, target)} |")


if __name__ == "__main__":
    main()
