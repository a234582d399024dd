#!/usr/bin/env python3
"""What does #[derive(Prompt)] on Jinja prompts cost at build time, next to askama?

Generates, in a temporary directory outside the repository, a cargo workspace with three
crates whose build is timed, two that give what a crate costs before its first prompt, and
one that checks the output:

- `derive_jinja`: N Jinja prompts in `prompts/` (1-3 KB each, a dozen values: text fields,
  an integer, a flag for an `{% if %}`, a list joined with `join`, a `{% for %}` over a list
  of structs with `loop.index` and an `{% if %}` inside, the filters `upper`, `lower` and
  `trim`, and an `{% include %}` of one of two shared parts) and one `#[derive(Prompt)]`
  struct per prompt; it depends on promptic by path;
- `askama_jinja`: the same N structs with `#[derive(askama::Template)]` (escaping off) on
  the same files, under `templates/`; it depends on askama 0.16 only;
- `derive_markdown`: N Markdown prompts of `build_time.py` with their `#[derive(Prompt)]`
  structs, for the cost per prompt of the Markdown front end;
- `empty_promptic` and `empty_askama`: a crate that depends on promptic, or on askama, and
  holds no prompt; timed like the others when built alone;
- `compare_renders` (not timed): renders every Jinja prompt with both engines from the same
  values and fails unless the texts are equal. It runs before anything is timed.

The templates use Jinja2's default whitespace (no `trim_blocks`, no `lstrip_blocks`, one
trailing newline dropped), which is askama's too, with explicit `-` where a tag's line
should leave no blank line.

Every build is `cargo build` (debug) with cargo's defaults: incremental for the workspace's
own crates, full debug information; promptic's crates are built as crates.io's are, not
incrementally (a path dependency would be). `CARGO_INCREMENTAL`, `CARGO_PROFILE_*`,
`RUSTFLAGS` and `RUSTC_WRAPPER` are removed from the environment of the builds, so a shell
that sets them does not change what is measured. It times, for each of the three crates, the runs of the
crates interleaved so that a burst of other work lands on each crate alike:

1. the crate alone, clean: dependencies built once, then `cargo clean -p <crate>` and a
   rebuild of the crate, so promptic, askama, syn and the rest are not counted;
2. after touching one template: a sentence appended to one prompt's file, then a rebuild;
3. a clean build with dependencies: a fresh target directory, everything the crate needs.

Each measurement is repeated (3 times by default) and the median kept.

    python3 benches/build_time_askama.py             # 30 prompts, 3 runs each
    python3 benches/build_time_askama.py --runs 1 --keep
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

sys.dont_write_bytecode = True  # no __pycache__ left in benches/
sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_time as bt  # noqa: E402  (the Markdown prompts and the shared helpers)

REPO = bt.REPO

CRATES = ("derive_jinja", "askama_jinja", "derive_markdown")
# Crates with a dependency and no prompt: what a crate costs before its first prompt.
EMPTY = ("empty_promptic", "empty_askama")

# promptic is a path dependency here, and cargo compiles a path dependency as it compiles
# the workspace's own crates: incrementally, which writes a dependency graph and a query
# cache no user pays for. A user's promptic comes from crates.io, built as askama is, once
# and not incrementally; these lines build promptic's four crates that way.
REGISTRY_LIKE = "".join(f"\n[profile.dev.package.{c}]\nincremental = false\n"
                        for c in ("promptic", "prompt-macros", "prompt-runtime", "prompt-store"))

# --- the Jinja prompts ------------------------------------------------------------------

# Every prompt has these; the shared parts read `product`, `max_words` and `urgent`.
COMMON = ["product", "user_name"]
# Text fields a prompt picks six of; `tone` is always lowered, `notes` always trimmed.
OPTIONAL = ["team", "region", "audience", "deadline", "goal", "channel", "language",
            "tone", "notes", "client", "metric", "source"]

VALUES = {
    "product": "Lumen Notes",
    "user_name": "Ada Okafor",
    "team": "the platform team",
    "region": "Western Europe",
    "audience": "new customers on the free plan",
    "deadline": "Friday noon",
    "goal": "a release note the support desk can paste as is",
    "channel": "the #launch channel",
    "language": "British English",
    "tone": "Calm and Direct",
    "notes": "  cite the March numbers first\n",
    "client": "Harbor & Pine",
    "metric": "weekly active writers",
    "source": "the product analytics export",
}

TOPICS = ["search", "offline sync", "sharing", "pricing", "mobile editor"]

STEPS = [
    ("Draft the outline", "Sam", 25, True),
    ("Collect the numbers", "Priya", 40, True),
    ("Write the first version", "Ada", 90, False),
    ("Review with legal", "Jonas", 30, False),
]

SHARED = {
    "parts/preamble_a.md.j2":
        "You are the writing assistant for {{ product }}. Everything you write is read by "
        "people who use {{ product }} every day, so keep to what they can check.\n"
        "\n"
        "- Answer in at most {{ max_words }} words.\n"
        "- Say so when the material does not support a claim.\n"
        "{% if urgent %}- This is urgent: put the answer in the first line.\n{% endif -%}\n"
        "- Never invent numbers, names or dates.\n",
    "parts/preamble_b.md.j2":
        "This task is part of the {{ product }} writing desk. Its readers are busy: lead "
        "with what matters and keep paragraphs short.\n"
        "\n"
        "{% if urgent -%}\n"
        "Urgent: the first line must stand on its own.\n"
        "\n"
        "{% endif -%}\n"
        "The answer has a hard limit of {{ max_words }} words; count them.\n",
}

FIELD_SENTENCES = bt.FIELD_SENTENCES + [
    "Bring in {} only where it changes the answer.",
]


def jinja_field(f, upper):
    if f == "tone":
        return "{{ tone | lower }}"
    if f == "notes":
        return "{{ notes | trim }}"
    return "{{ " + f + (" | upper" if upper else "") + " }}"


def make_jinja_prompt(i, rng):
    """One Jinja prompt: its file's text and its fields."""
    subject = bt.SUBJECTS[i % len(bt.SUBJECTS)]
    title = f"{subject} {bt.TITLES[(i // len(bt.SUBJECTS)) % len(bt.TITLES)]} {i}"
    optional = rng.sample(OPTIONAL, 6)
    target = rng.randint(1100, 3000)
    part = "parts/preamble_a.md.j2" if i % 2 == 0 else "parts/preamble_b.md.j2"

    sentences = []
    for k, f in enumerate(optional):
        before, after = rng.choice(FIELD_SENTENCES).split("{}")
        sentences.append(before + jinja_field(f, k == 0) + after)
    sentences.append("Write for {{ user_name }}, who asked for this.")
    rng.shuffle(sentences)

    blocks = [f"# {title}", f'{{% include "{part}" %}}',
              "Topics to keep to: {{ topics | join(\", \") }}."]
    size = 600
    heading = 0
    while sentences or size < target:
        if rng.random() < 0.3 and heading < len(bt.HEADINGS):
            blocks.append(f"## {bt.HEADINGS[heading]}")
            heading += 1
        bullets = rng.random() < 0.5
        lines = []
        fillers = rng.sample(bt.FILLER, 4)
        for k in range(rng.randint(2, 4)):
            s = sentences.pop() if sentences and rng.random() < 0.6 else fillers[k]
            lines.append(("- " + s) if bullets else s)
            size += len(s) + 4
        blocks.append(("\n" if bullets else " ").join(lines))
        if len(blocks) == 5:
            blocks.append(
                "## Steps so far\n"
                "{% for step in steps %}\n"
                "{{ loop.index }}. {{ step.title }} ({{ step.owner }}, {{ step.minutes }} min)"
                "{% if step.done %}, done{% endif %}\n"
                "{%- endfor %}")
            size += 150
    if not any("{% for" in b for b in blocks):
        blocks.append("Steps so far:{% for step in steps %}\n- {{ step.title }}{% endfor %}")
    # The `{% if %}` of the prompt itself: a paragraph that is there only when urgent.
    text = "\n\n".join(blocks)
    text += ("\n\n{% if urgent -%}\nBecause this is urgent, leave out the background.\n\n"
             "{% endif -%}\nEnd with one line for {{ user_name }}: what to do next.\n")
    return {"name": f"p{i:03}", "struct": f"Prompt{i:03}", "text": text,
            "fields": COMMON + optional}


def struct_fields(p):
    lines = [f"    pub {f}: &'a str," for f in p["fields"]]
    lines += ["    pub max_words: u32,", "    pub urgent: bool,",
              "    pub topics: &'a [&'a str],", "    pub steps: &'a [Step<'a>],"]
    return lines


STEP_STRUCT = ["pub struct Step<'a> {", "    pub title: &'a str,", "    pub owner: &'a str,",
               "    pub minutes: u32,", "    pub done: bool,", "}", ""]


def write_templates(folder, prompts, edit=None):
    """The prompts' files and the shared parts; `edit` appended to the first prompt."""
    for name, text in SHARED.items():
        bt.write(folder / name, text)
    for k, p in enumerate(prompts):
        text = p["text"] + (edit + "\n" if edit and k == 0 else "")
        bt.write(folder / f"{p['name']}.md.j2", text)


def write_derive_jinja(root, prompts, edit=None):
    bt.write(root / "prompts" / "promptic.json", "{}\n")
    write_templates(root / "prompts", prompts, edit)
    lines = ["//! Generated by promptic's benches/build_time_askama.py.", "",
             "use promptic::PromptValue;", "", "#[derive(PromptValue)]"] + STEP_STRUCT
    for p in prompts:
        lines += ["#[derive(promptic::Prompt)]", f"#[prompt(\"{p['name']}\")]",
                  f"pub struct {p['struct']}<'a> {{"] + struct_fields(p) + ["}", ""]
    bt.write(root / "src" / "lib.rs", "\n".join(lines))


def write_askama_jinja(root, prompts, edit=None):
    write_templates(root / "templates", prompts, edit)
    lines = ["//! Generated by promptic's benches/build_time_askama.py.", ""] + STEP_STRUCT
    for p in prompts:
        lines += ["#[derive(askama::Template)]",
                  f"#[template(path = \"{p['name']}.md.j2\", escape = \"none\")]",
                  f"pub struct {p['struct']}<'a> {{"] + struct_fields(p) + ["}", ""]
    bt.write(root / "src" / "lib.rs", "\n".join(lines))


def write_markdown(root, prompts, edit=None):
    edited = [bt.with_edit(prompts[0], edit)] + prompts[1:] if edit else prompts
    bt.write_derive(root, edited, bt.TEMPLATES)


def write_compare(root, prompts):
    """A binary that renders every Jinja prompt with both engines and compares the texts."""
    def value(krate, p):
        out = [f"{krate}::{p['struct']} {{"]
        out += [f"            {f}: {bt.rust_str(VALUES[f])}," for f in p["fields"]]
        out += ["            max_words: 250,", "            urgent,",
                "            topics: &TOPICS,", f"            steps: &{krate.upper()}_STEPS,",
                "        }"]
        return "\n".join(out)

    def steps(krate):
        items = [f"{krate}::Step {{ title: {bt.rust_str(t)}, owner: {bt.rust_str(o)}, "
                 f"minutes: {m}, done: {str(d).lower()} }}" for t, o, m, d in STEPS]
        return (f"const {krate.upper()}_STEPS: [{krate}::Step<'static>; {len(items)}] = [\n    "
                + ",\n    ".join(items) + ",\n];")

    lines = ["//! Generated by promptic's benches/build_time_askama.py: both engines, same values.",
             "", f"const TOPICS: [&str; {len(TOPICS)}] = "
             f"[{', '.join(bt.rust_str(t) for t in TOPICS)}];",
             steps("derive_jinja"), steps("askama_jinja"), "",
             "fn main() {", "    let mut same = 0;", "    for urgent in [false, true] {"]
    for p in prompts:
        lines += ["        let promptic = " + value("derive_jinja", p) + ";",
                  "        let askama = " + value("askama_jinja", p) + ";",
                  "        let promptic = promptic.render().expect(\"promptic renders\").text;",
                  "        let askama = askama::Template::render(&askama).expect(\"askama renders\");",
                  "        if promptic != askama {",
                  f"            eprintln!(\"{p['name']} (urgent: {{urgent}}) differs\\n"
                  "--- promptic\\n{promptic}\\n--- askama\\n{askama}\");",
                  "            std::process::exit(1);",
                  "        }",
                  "        same += 1;",
                  f"        if {str(p['name'] == 'p000').lower()} && !urgent {{",
                  "            println!(\"{}\", promptic.len());",
                  "        }"]
    lines += ["    }", "    println!(\"{same}\");", "}", ""]
    bt.write(root / "src" / "main.rs", "\n".join(lines))


# --- measuring --------------------------------------------------------------------------


def manifest(name, deps, bin_=False):
    kind = "" if not bin_ else '\n[[bin]]\nname = "compare_renders"\npath = "src/main.rs"\n'
    return (f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2024"\n'
            f'publish = false\n{kind}\n[dependencies]\n' + "".join(f"{d}\n" for d in deps))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prompts", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--skip-full", action="store_true",
                    help="leave out the clean builds with dependencies (the slow part)")
    args = ap.parse_args()
    n = args.prompts

    rng = random.Random(20261205)
    jinja = [make_jinja_prompt(i, rng) for i in range(n)]
    md_rng = random.Random(20260412)  # build_time.py's seed: its first N prompts
    markdown = [bt.make_prompt(i, md_rng) for i in range(n)]

    tmp = Path(tempfile.mkdtemp(prefix="promptic-build-askama-"))
    env = bt.cargo_env(tmp / "target")
    promptic = f"promptic = {{ path = {json.dumps(str(REPO))} }}"
    askama = 'askama = "0.16.1"'
    try:
        bt.write(tmp / "Cargo.toml", "[workspace]\nmembers = ["
                 + ", ".join(f'"{c}"' for c in CRATES + EMPTY + ("compare_renders",))
                 + ']\nresolver = "3"\n' + REGISTRY_LIKE)
        shutil.copy(REPO / "Cargo.lock", tmp / "Cargo.lock")
        bt.write(tmp / "derive_jinja" / "Cargo.toml", manifest("derive_jinja", [promptic]))
        bt.write(tmp / "askama_jinja" / "Cargo.toml", manifest("askama_jinja", [askama]))
        bt.write(tmp / "derive_markdown" / "Cargo.toml", manifest("derive_markdown", [promptic]))
        for krate, dep in zip(EMPTY, (promptic, askama)):
            bt.write(tmp / krate / "Cargo.toml", manifest(krate, [dep]))
            bt.write(tmp / krate / "src" / "lib.rs", f"use {krate[6:]} as _;\n")
        bt.write(tmp / "compare_renders" / "Cargo.toml", manifest(
            "compare_renders", [promptic, askama, 'derive_jinja = { path = "../derive_jinja" }',
                                'askama_jinja = { path = "../askama_jinja" }'], bin_=True))
        writers = {"derive_jinja": (write_derive_jinja, jinja),
                   "askama_jinja": (write_askama_jinja, jinja),
                   "derive_markdown": (write_markdown, markdown)}
        for krate, (writer, prompts) in writers.items():
            writer(tmp / krate, prompts)
        write_compare(tmp / "compare_renders", jinja)

        sizes = [len(p["text"].encode()) for p in jinja]
        md_kb = sum((tmp / "derive_markdown" / "prompts" / f"{p['name']}.md").stat().st_size
                    for p in markdown) / 1024
        print(f"{n} Jinja prompts, {min(sizes)}-{max(sizes)} bytes each, {sum(sizes) / 1024:.0f} KB;"
              f" {n} Markdown prompts, {md_kb:.0f} KB; in {tmp}", flush=True)

        print("building dependencies and comparing the renders...", flush=True)
        bt.cargo(["build", "-q", "-p", "compare_renders"], tmp, env)
        # Each crate alone too: built with other packages, a shared dependency can get other
        # features, and the first timed build of the crate alone would rebuild it.
        for krate in CRATES + EMPTY:
            bt.cargo(["build", "-q", "-p", krate], tmp, env)
        compared = subprocess.run([str(tmp / "target" / "debug" / "compare_renders")],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if compared.returncode != 0:
            sys.exit(f"promptic and askama render differently:\n{compared.stdout[-6000:]}")
        first_len, same = compared.stdout.split()
        print(f"  {same} renders equal ({n} prompts, urgent and not); p000 renders "
              f"{first_len} bytes", flush=True)

        results = {}
        runs = {(c, kind): [] for c in CRATES + EMPTY for kind in ("alone", "touch", "full")}
        for run in range(args.runs):
            for krate in CRATES + EMPTY:
                bt.cargo(["clean", "-q", "-p", krate], tmp, env)
                runs[(krate, "alone")].append(bt.timed_build(krate, tmp, env))
        for run in range(args.runs):
            sentence = f"Edit number {run + 1} adds this sentence."
            for krate in CRATES:
                writer, prompts = writers[krate]
                writer(tmp / krate, prompts, sentence)
                runs[(krate, "touch")].append(bt.timed_build(krate, tmp, env))
        for krate in CRATES:
            writer, prompts = writers[krate]
            writer(tmp / krate, prompts)
        if not args.skip_full:
            fresh = tmp / "fresh"
            fresh_env = bt.cargo_env(fresh)
            for run in range(args.runs):
                for krate in CRATES:
                    shutil.rmtree(fresh, ignore_errors=True)
                    runs[(krate, "full")].append(bt.timed_build(krate, tmp, fresh_env))
                    shutil.rmtree(fresh, ignore_errors=True)
        for (krate, kind), times in runs.items():
            if times:
                results[(krate, kind)] = statistics.median(times)
                print(f"  {krate} {kind}: {bt.fmt_runs(times)}", flush=True)
        report(results, n, args.runs)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def report(results, n, runs):
    ms = 1000.0
    print()
    print(f"median of {runs} runs, cargo build (debug, cargo's defaults), {n} prompts, "
          f"{os.cpu_count()} cores")
    print()
    print("| build | promptic, Jinja | askama | promptic ÷ askama | goal |")
    print("| --- | --- | --- | --- | --- |")
    goals = {"alone": 1.0, "touch": 1.0, "full": 2.0}
    labels = {"alone": "the crate alone, clean", "touch": "after touching one template",
              "full": "clean, with dependencies"}
    for kind, label in labels.items():
        if ("askama_jinja", kind) not in results:
            continue
        d, a = results[("derive_jinja", kind)], results[("askama_jinja", kind)]
        print(f"| {label} | {d:.2f} s | {a:.2f} s | {d / a:.2f} | ≤ {goals[kind]:.1f}: "
              f"{bt.verdict(d / a, goals[kind])} |")
    print()
    print("| build | promptic, Markdown, per prompt | askama, per prompt | Markdown ÷ askama "
          "| goal |")
    print("| --- | --- | --- | --- | --- |")
    for kind, label in labels.items():
        if ("askama_jinja", kind) not in results:
            continue
        m, a = results[("derive_markdown", kind)], results[("askama_jinja", kind)]
        print(f"| {label} | {m / n * ms:.1f} ms | {a / n * ms:.1f} ms | {m / a:.2f} "
              f"| ≤ 0.5: {bt.verdict(m / a, 0.5)} |")
    ep, ea = results[("empty_promptic", "alone")], results[("empty_askama", "alone")]
    d, a = results[("derive_jinja", "alone")], results[("askama_jinja", "alone")]
    m = results[("derive_markdown", "alone")]
    print()
    print(f"a crate with no prompt: {ep:.2f} s with promptic, {ea:.2f} s with askama; "
          f"over it, per prompt: Jinja {(d - ep) / n * ms:.1f} ms, Markdown "
          f"{(m - ep) / n * ms:.1f} ms, askama {(a - ea) / n * ms:.1f} ms")


if __name__ == "__main__":
    main()
