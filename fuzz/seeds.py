#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target, `fuzz/corpus/TARGET/seed-*`, from the
repository's prompts, test fixtures and Python vectors, plus a few hand-written inputs
for what those lack.

    python3 fuzz/seeds.py          # rewrites every seed-* file (others are left alone)

The seeds are committed; what a fuzzing run adds to the corpus is not (see .gitignore).
Input formats are described in `fuzz/src/*.rs`: files and parts are ended by a 0xFF byte.
Python 3, standard library only.
"""

import json
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
SEP = b"\xff"

# Folders of prompts, each with its templates folder and maybe a promptkit.json.
FOLDERS = {
    "prompts": REPO / "prompts",
    "ui": REPO / "tests/ui/prompts",
    "cli-good": REPO / "promptkit-cli/tests/fixtures/good",
    "cli-broken": REPO / "promptkit-cli/tests/fixtures/broken",
}

# What the folders' prompts do not show: each a (name, prompt, config, templates).
PIPELINE_EXTRA = [
    ("guidance-else", '{\n"title": "G"\n}\n{% if guidance == "detailed" %}\nLong $Name.\n{% else %}\nShort.\n{% endif %}', "", {}),
    ("nested-blocks", "{% if a %}\n{% if b %}\n$x and ${y}\n{% endif %}\n{% endif %}\n$$5", "", {}),
    ("literals", "echo $HOME and $preferred", '{"identity": {"preferred": "Sam"}, "literals": ["HOME"]}', {}),
    ("template-chain", "Start: $one", "", {"one": "1 $two", "two": "2 $three", "three": "3 $day"}),
    ("template-cycle", "$a", "", {"a": "$b", "b": "$c", "c": "$a"}),
    ("template-twice", "$t $t\n$t", "", {"t": "{% if x %}\nX $t2\n{% endif %}", "t2": "$Preferred"}),
    ("yaml-frontmatter", "---\ntitle: YAML\n---\nHello $name", "", {}),
    ("crlf-bom", "\ufeff{\r\n\"color\": \"#00bcd4\"\r\n}\r\nLine $day\r\n{% if note %}\r\n$note\r\n{% endif %}\r\n", "", {}),
    ("braces-and-dollars", "${day} $$ ${ day } ${day $5 $ $1 $_x ${_} $day_YYYYMMDD $Day_yyyymmdd", "", {}),
    ("unicode-names", "$naïve ${na}ïve $é Grüße $day", "", {}),
    ("meta-keys", '{\n"title": "T",\n"tier": 2,\n"priority": 1,\n"type": "x",\n"tools": ["a"],\n"max_output_tokens": 10,\n"thinking_budget": 5,\n"output": "md",\n"extra": {"a": 1}\n}\nBody', "", {}),
    ("config-templates-folder", "$p", '{"templates": "parts", "identity": {"a": {"b": ["x", 1, null]}}}', {"p": "$A_b"}),
    ("empty", "", "", {}),
    ("braces-file", '{\n"placeholders": "braces"\n}\nHi {{ name }} and {{Preferred}}, {{day}} costs $5; {{ not closed', "", {}),
    ("braces-folder", "{{greet}} {{ day }}", '{"placeholders": "braces", "identity": {"name": "Sam"}}', {"greet": "Hello {{Name}}"}),
    ("empty-directive", "Hello $day\n{%}", "", {}),
    ("chat-sections", "{% system rules %}\nYou help $preferred.\n{% history past limit=3 %}\n{% user %}\n{% if note %}\n$note\n{% endif %}\n$question\n{% assistant %}\nSure.", "", {"t": "{% user %}\nin a template"}),
    # The limits on hostile input: nesting, depth, expansion.
    ("nested-70", "{% if x %}\n" * 70 + "deep $day\n" + "{% endif %}\n" * 70, "", {}),
    ("chain-120", "$c0", "", {f"c{i}": f"{i} $c{i + 1}" for i in range(120)}),
    ("doubling-40", "$d0", "", {**{f"d{i}": f"$d{i + 1} $d{i + 1}" for i in range(40)}, "d40": "leaf $day"}),
]

IDENTITY_EXTRA = [
    '{"preferred": "sam"}',
    '{"identity": {"name": "Alex Rivera", "age": 41, "langs": ["en", "es"], "bio": null}}',
    '{"a": {"b": {"c": "deep", "d": "x"}, "e": "y"}, "f": "z"}',
    '{"n": 1.5, "i": -3, "big": 1e3, "t": true, "f": false, "z": null, "huge": 1e400, "long": 123456789012345678901234}',
    '{"day_ABC": "one", "day_abc": "two"}',
    '{"name": "alex rivera", "Name": "Custom"}',
    '{"identity": "me", "name": "Alex"}',
    '{"a": {"b": [1, {"c": 2}]}}',
    '{"a_b": 1, "a": {"b": 2}}',
    '{"a": 1, "a": 2}',
    '{\n  "\u00e9": "x",\n  "b": oops\n}',
    '{"a": 1,}',
    '[1, 2]',
    '"x"',
    '{} x',
    '{"identity": {"x": "\u00dfig \u01c6 \u0130"}, "templates": "t", "literals": ["HOME", "x"]}',
    '{"identity": {}, "template": "t", "literals": "HOME"}',
    '{"literals": ["HOME", "HOME", "bad name"], "templates": "../up"}',
]


CHAT_TEMPLATE_EXTRA = [
    "You are Didi, a patient tutor.\nKeep answers short.\n---template---\n- section: admin_identity\n  role: system\n  limit: 0\n  content: |\n\n    Your administrator is {{admin_name}} ({{ admin_pubkey }}).\n\n      Indented lines keep their extra indent.\n\n- section: history\n  role: expand\n  limit: 2\n- section: question\n  role: user\n  content: {{question}}\n",
    "just a personality, no marker",
    "P\n---template---\n- section: a\n  role: sytem\n  limti: x\n  content: {{ unclosed\n- section: a\n  role: expand\n  limit: 99999999999999999999999\n",
    "\ufeffP\r\n---template---\r\n- section: q\r\n  role: assistant\r\n  content: |\r\n    {{a}}{{b}} {{ c }} {{}} {{1}} $x\r\n",
    "---template---\n",
    "P\n---template---\n---template---\n- section:\n- section: h\n  role: expand\n  limit: -1\n",
]


def write(target, name, data):
    folder = FUZZ / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"seed-{name}").write_bytes(data)


def pipeline_input(prompt, config, templates):
    parts = [prompt, config] + [name.encode() + b"\n" + body for name, body in templates]
    return SEP.join(parts)


def folder_seeds():
    count = 0
    for tag, folder in FOLDERS.items():
        config_path = folder / "promptkit.json"
        config = config_path.read_bytes() if config_path.is_file() else b""
        template_dir = folder / "templates"
        templates = []
        if template_dir.is_dir():
            templates = [
                (p.stem, p.read_bytes())
                for p in sorted(template_dir.glob("*.md"))
                if not p.is_symlink()
            ]
        for path in sorted(folder.rglob("*.md")):
            if path.is_symlink() or template_dir in path.parents:
                continue
            name = path.relative_to(folder).with_suffix("").as_posix().replace("/", "_")
            write("pipeline", f"{tag}-{name}", pipeline_input(path.read_bytes(), config, templates))
            count += 1
    return count


def main():
    for target in ["pipeline", "identity_json", "safe_substitute", "chat_template"]:
        folder = FUZZ / "corpus" / target
        for old in folder.glob("seed-*") if folder.is_dir() else []:
            old.unlink()

    count = folder_seeds()
    for name, prompt, config, templates in PIPELINE_EXTRA:
        data = pipeline_input(
            prompt.encode(),
            config.encode(),
            [(k, v.encode()) for k, v in templates.items()],
        )
        write("pipeline", f"extra-{name}", data)
        count += 1
    print(f"pipeline: {count} seeds")

    jsons = [p for f in FOLDERS.values() for p in [f / "promptkit.json"] if p.is_file()]
    jsons += sorted((REPO / "promptkit-cli/tests/fixtures/values").glob("*.json"))
    for path in jsons:
        write("identity_json", f"{path.parent.name}-{path.stem}", path.read_bytes())
    for i, text in enumerate(IDENTITY_EXTRA):
        write("identity_json", f"extra-{i:02}", text.encode())
    print(f"identity_json: {len(jsons) + len(IDENTITY_EXTRA)} seeds")

    # didactyl templates: the UI-test prompts in the format, the runtime test's templates,
    # and what those lack.
    count = 0
    for path in sorted((REPO / "tests/ui/prompts").glob("didactyl*.md")):
        write("chat_template", f"ui-{path.stem}", path.read_bytes())
        count += 1
    for i, text in enumerate(CHAT_TEMPLATE_EXTRA):
        write("chat_template", f"extra-{i:02}", text.encode())
        count += 1
    print(f"chat_template: {count} seeds")

    # Every 80th of the Python vectors: about 40, spread over the generator's cases.
    vectors = json.loads((REPO / "prompt-runtime/tests/python/vectors.json").read_text())
    picked = vectors[::80]
    for i, vector in enumerate(picked):
        parts = [vector["text"]]
        for key, value in vector["vars"].items():
            parts += [key, value]
        write("safe_substitute", f"vector-{i:02}", SEP.join(p.encode() for p in parts))
    print(f"safe_substitute: {len(picked)} seeds")


if __name__ == "__main__":
    main()
