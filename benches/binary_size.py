#!/usr/bin/env python3
"""What does the first derived prompt of each format add to a binary?

Generates, in a temporary directory outside the repository, a crate with ten binaries:
`empty` (depends on promptic, derives nothing), and `markdown`, `jinja` and `dotprompt`,
each deriving one prompt of that format (the same two values, `who` and `day`) and
printing its render; `jinja_loop` derives a Jinja prompt with a loop over a list of
derived structs, a filter and conditions, `jinja_option` one that prints an `Option`
field, `jinja_filters` one with filters and arithmetic that the compiled render runs
through the run-time renderer's implementations (`title`, `replace`, `+`), and
`jinja_json` one that prints a key of a `serde_json::Value` field and `jinja_map` one of a
`BTreeMap` field, each a key that may be missing (the derived render then checks the values
as the run-time renderer does, without it), and `jinja_tools` one with a loop over a
`Vec<serde_json::Value>` that prints and tests keys of each item. Builds them in
release with `strip = true` and prints each file's size and what it adds over `empty`,
linked as Rust links by default on x86_64 Linux (rust-lld) and, with `--gnu-ld`, by the
system's GNU ld too: rust-lld keeps the unwinding tables (`.gcc_except_table`) of every
`prompt_runtime` code unit the link loads, even of functions it drops, where GNU ld drops
them with their functions.

    python3 benches/binary_size.py           # the table
    python3 benches/binary_size.py --gnu-ld  # with a second column, linked by GNU ld
    python3 benches/binary_size.py --keep    # and keep the crate (for `cargo bloat`)
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROMPTS = {
    "hello.md": "Hello $who, today is $day.\n",
    "hello_j.md.j2": "Hello {{ who }}, today is {{ day }}.\n",
    "tools_j.md.j2": (
        "Tools for {{ who }}:\n{% for t in tools %}- {{ t.name | upper }}"
        "{% if t.slow %} (slow){% endif %}\n{% endfor %}{% if day %}Today: {{ day }}{% endif %}\n"
    ),
    "note_j.md.j2": "{% if note %}Note: {{ note }}{% endif %}\n",
    "filters_j.md.j2": "Hello {{ who | title }}, {{ day | replace('day', 'DAY') }} is day {{ n + 1 }}.\n",
    "json_j.md.j2": "Hello {{ user.name }}.\n",
    "map_j.md.j2": "Hello {{ names.first }}.\n",
    "json_tools_j.md.j2": "Tools:\n{% for t in tools %}- {{ t.name }}{% if t.description %}: "
                     "{{ t.description }}{% endif %}\n{% endfor %}",
    "hello_d.prompt": "---\ninput:\n  schema:\n    who: string\n    day: string\n---\nHello {{who}}, today is {{day}}.\n",
}

STRUCT = "struct Hello<'a> { who: &'a str, day: &'a str }"

BINS = {
    "empty": 'fn main() { println!("{}", std::env::args().count()); }\n',
    "markdown": f"""use promptic::Prompt;
#[derive(Prompt)]
#[prompt("hello")]
{STRUCT}
fn main() {{
    let who = std::env::args().next().unwrap_or_default();
    let identity = promptic::Identity::default();
    println!("{{}}", Hello {{ who: &who, day: "Friday" }}.render(&identity).text);
}}
""",
    "jinja": f"""use promptic::Prompt;
#[derive(Prompt)]
#[prompt("hello_j")]
{STRUCT}
fn main() {{
    let who = std::env::args().next().unwrap_or_default();
    match (Hello {{ who: &who, day: "Friday" }}).render() {{
        Ok(content) => println!("{{}}", content.text),
        Err(problem) => eprintln!("{{problem}}"),
    }}
}}
""",
    "jinja_loop": """use promptic::{Prompt, PromptValue};
#[derive(PromptValue)]
struct Tool { name: String, slow: bool }
#[derive(Prompt)]
#[prompt("tools_j")]
struct Tools<'a> { who: &'a str, day: &'a str, tools: Vec<Tool> }
fn main() {
    let who = std::env::args().next().unwrap_or_default();
    let tools = vec![Tool { name: who.clone(), slow: true }];
    match (Tools { who: &who, day: "Friday", tools }).render() {
        Ok(content) => println!("{}", content.text),
        Err(problem) => eprintln!("{problem}"),
    }
}
""",
    "jinja_option": """use promptic::Prompt;
#[derive(Prompt)]
#[prompt("note_j")]
struct Note<'a> { note: Option<&'a str> }
fn main() {
    let who = std::env::args().next();
    match (Note { note: who.as_deref() }).render() {
        Ok(content) => println!("{}", content.text),
        Err(problem) => eprintln!("{problem}"),
    }
}
""",
    "jinja_filters": """use promptic::Prompt;
#[derive(Prompt)]
#[prompt("filters_j")]
struct Filters<'a> { who: &'a str, day: &'a str, n: i64 }
fn main() {
    let who = std::env::args().next().unwrap_or_default();
    let n = std::env::args().count() as i64;
    match (Filters { who: &who, day: "Friday", n }).render() {
        Ok(content) => println!("{}", content.text),
        Err(problem) => eprintln!("{problem}"),
    }
}
""",
    "jinja_json": """use promptic::Prompt;
#[derive(Prompt)]
#[prompt("json_j")]
struct Json { user: serde_json::Value }
fn main() {
    let who = std::env::args().next().unwrap_or_default();
    match (Json { user: serde_json::json!({ "name": who }) }).render() {
        Ok(content) => println!("{}", content.text),
        Err(problem) => eprintln!("{problem}"),
    }
}
""",
    "jinja_tools": """use promptic::Prompt;
#[derive(Prompt)]
#[prompt("json_tools_j")]
struct Tools { tools: Vec<serde_json::Value> }
fn main() {
    let who = std::env::args().next().unwrap_or_default();
    let tools = vec![serde_json::json!({ "name": who, "description": "looks things up" })];
    match (Tools { tools }).render() {
        Ok(content) => println!("{}", content.text),
        Err(problem) => eprintln!("{problem}"),
    }
}
""",
    "jinja_map": """use promptic::Prompt;
#[derive(Prompt)]
#[prompt("map_j")]
struct Names { names: std::collections::BTreeMap<String, String> }
fn main() {
    let who = std::env::args().next().unwrap_or_default();
    let names = std::collections::BTreeMap::from([("first".to_owned(), who)]);
    match (Names { names }).render() {
        Ok(content) => println!("{}", content.text),
        Err(problem) => eprintln!("{problem}"),
    }
}
""",
    "dotprompt": f"""use promptic::Prompt;
#[derive(Prompt)]
#[prompt("hello_d")]
{STRUCT}
fn main() {{
    let who = std::env::args().next().unwrap_or_default();
    match (Hello {{ who: &who, day: "Friday" }}).render() {{
        Ok(rendered) => println!("{{}}", rendered.messages.len()),
        Err(problem) => eprintln!("{{problem}}"),
    }}
}}
""",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", action="store_true", help="keep the temporary crate")
    ap.add_argument("--gnu-ld", action="store_true",
                    help="also link with the system's GNU ld (-Clinker-features=-lld)")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="promptic-binary-size-"))
    (root / "src" / "bin").mkdir(parents=True)
    (root / "prompts").mkdir()
    (root / "Cargo.toml").write_text(
        '[package]\nname = "binary_size"\nversion = "0.0.0"\nedition = "2024"\n'
        f'publish = false\n\n[dependencies]\npromptic = {{ path = "{REPO}" }}\n'
        'serde_json = "1"\n\n'
        "[profile.release]\nstrip = true\n\n[workspace]\n"
    )
    for name, text in PROMPTS.items():
        (root / "prompts" / name).write_text(text)
    for name, code in BINS.items():
        (root / "src" / "bin" / f"{name}.rs").write_text(code)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CARGO_PROFILE_", "CARGO_TARGET_DIR")) and k != "RUSTFLAGS"}
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=root, env=env, check=True)
    columns = [{name: (root / "target" / "release" / name).stat().st_size for name in BINS}]
    if args.gnu_ld:
        gnu = dict(env, CARGO_TARGET_DIR=str(root / "target-gnu-ld"),
                   RUSTFLAGS="-Clinker-features=-lld")
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=root, env=gnu, check=True)
        columns.append({name: (root / "target-gnu-ld" / "release" / name).stat().st_size
                        for name in BINS})
    heads = ["stripped size", "over `empty`", "GNU ld: size", "over `empty`"]
    print("| binary | " + " | ".join(heads[:2 * len(columns)]) + " |")
    print("| --- |" + " --- |" * (2 * len(columns)))
    for name in BINS:
        cells = []
        for sizes in columns:
            size = sizes[name]
            extra = "" if name == "empty" else f"{(size - sizes['empty']) / 1024:+,.0f} KB"
            cells += [f"{size / 1024:,.0f} KB", extra]
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    if args.keep:
        print(f"kept {root}")
    else:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
