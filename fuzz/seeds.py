#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target, `fuzz/corpus/TARGET/seed-*`, from the
repository's prompts, test fixtures and Python vectors, plus a few hand-written inputs
for what those lack.

    python3 fuzz/seeds.py          # rewrites every seed-* file (others are left alone)

The seeds are committed; what a fuzzing run adds to the corpus is not (see .gitignore).
Input formats are described in `fuzz/src/*.rs`: files and parts are ended by a 0xFF byte.
Python 3, standard library only.
"""

import io
import json
import zipfile
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
SEP = b"\xff"

# Folders of prompts, each with its templates folder and maybe a promptic.json.
FOLDERS = {
    "prompts": REPO / "prompts",
    "ui": REPO / "tests/ui/prompts",
    "cli-good": REPO / "promptic-cli/tests/fixtures/good",
    "cli-broken": REPO / "promptic-cli/tests/fixtures/broken",
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


# keep's documents, as keep's docs and prompt-runtime's doc tests write them: (name, tags,
# [(id, content)]).
KEEP_EXTRA = [
    ("summarize", "type=meeting project=myapp", [
        (".prompt/summarize/default", "## Prompt\nSummarize in under 100 words."),
        (".prompt/summarize/meetings", "type=meeting\n\n## Prompt\nList the decisions."),
        (".prompt/summarize/myapp-meetings", "type=meeting project=myapp\n\n## Prompt\nList the action items."),
    ]),
    ("analyze", "type=paper topic=code", [
        (".prompt/analyze/conversation", "type=conversation\n\n## Prompt\n\nExtract every fact stated in this conversation."),
        (".prompt/analyze/paper", "type=paper\n\n## Prompt\n\nDecompose this paper along its actual sections.\n### Output\nOne bullet per section."),
    ]),
    ("sections", "topic=code", [
        ("code", "# Code docs\ntopic=code\n\n## Prompt\n\nSummarize this code documentation.\n### Focus\nThe API."),
        ("draft", "topic=code\nno prompt section yet"),
        ("notes", "type=meeting project=myapp\n\n## Prompt\n\nSummarize.\n### Format\nBullets.\n\n## Notes\ntype=ignored\n"),
    ]),
    ("lines", "type=meeting project=x type=standup", [
        ("m", "type=paper\ntype=meeting project=x\n## Prompt\nM"),
        ("n", "a=1\na=1 b=2\n## Prompt\nformat=markdown\n"),
        ("o", "## Prompt\r\n\r\n  Only this.  \r\n"),
    ]),
    ("malformed", "q=a=b lang=\u65e5\u672c", [
        ("a", '{\n"match": ["type = paper", "type= paper project =x"]\n}\n\nBody'),
        ("b", '{\n"match": ["a b", 3, "t\\u0061g="]\n}\n\nBody'),
        ("c", '{\n"match": ["1st=x", "my-tag=x", "  ", "=x", "type=x\u3000bad", "q=a=b  lang=\u65e5\u672c"]\n}\n\nBody'),
        ("d", '{\n"match": "type=meeting"\n}\n\nBody'),
        ("e", '{\n"match": []\n}\n\nBody'),
        ("f", '{\n"match": {"type": "x"}\n}\n\nBody'),
        ("same", '{\n"match": ["y=2 x=1 x=1", "z=3"]\n}\n\nBody'),
        ("same2", '{\n"match": ["x=1 y=2", "z=3"]\n}\n\nBody'),
    ]),
    ("empty", "", []),
    ("duplicate-ids", "t=1", [("x", "t=1\n## Prompt\nA"), ("x", "## Prompt\nB"), ("", "")]),
]

# Store folders that the test folders do not show: each (name, {path: text}).
STORE_EXTRA = [
    ("doc-unknown-key", {
        "_meta/prompt_manifest.json": '{"prompts": {"system_rule": {"domain": "system_rule", "order": 100}}}',
        "_meta/placeholder_registry.json": '{"placeholders": {"char_name": {"type": "static"}}}',
        "system_rule.json": '{"id": "system_rule", "variants": {"default": {"text": "You are {{char_nme}}."}}}',
    }),
    ("doc-two-forms", {
        "_meta/prompt_manifest.json": '{"prompts": {\n "rules": {"domain": "rules", "order": 2},\n "persona": {"domain_file": "persona.json", "order": 1}}}',
        "_meta/placeholder_registry.json": '{"placeholders": {\n "char_name": {"type": "static"},\n "mood": {"resolve_phase": "runtime", "type": "string"}}}',
        "rules.json": '{"id": "rules", "variants": {"default": {"text": "Stay in character, {{char_name}}."}}}',
        "persona.json": '{"persona": {"variants": {"default": {"content": "You are {{char_name}}, feeling {{mood}}.\\n\\n\\n\\n"}}}}',
    }),
    ("doc-multi-turn", {
        "_meta/prompt_manifest.json": '{"prompts": {"example": {"domain": "example", "type": "multi_turn", "target": "message"}, "reply_start": {"domain": "reply_start", "target": "prefill", "requires_any": ["q"]}}}',
        "_meta/placeholder_registry.json": '{"placeholders": {"char_name": {"type": "static", "default": "Luna"}, "q": {"type": "runtime"}}}',
        "example.json": '{"variants": {"experimental": {"messages": [{"role": "user", "content": "Who are you? {{q}}"}, {"role": "assistant", "content": "I am {{char_name}}."}]}}}',
        "reply_start.json": '{"variants": {"default": {"text": "Well, {{ q }} {{q}}{{char_name}}"}, "short": {"text": "  \\n\\n\\n "}}}',
    }),
    ("doc-user-layer", {
        "_meta/prompt_manifest.json": '{"prompts": {"a": {"domain": "a", "enabled": false}, "b": {"domain": "b", "category": "core", "order": -5}}}',
        "_meta/placeholder_registry.json": '{"placeholders": {"k": {"type": "computed"}, "s": {"type": "static", "default": ""}}}',
        "_meta/user_manifest.json": '{"prompts": {"a": {"enabled": true, "variants": {"default": {"enabled": false}}}, "c": {"domain_file": "sub/c.json"}}}',
        "_meta/user_placeholder_registry.json": '{"placeholders": {"u": {"resolve_phase": "runtime"}}}',
        "a.json": '{"variants": {"default": {"text": "A {{k}}"}, "x": {"text": "AX {{u}}"}}}',
        "b.json": '{"variants": {"default": {"text": "{{s}}"}}}',
        "sub/c.json": '{"c": {"variants": {"default": {"content": "C {{k}}{{u}}{{s}}"}}}}',
    }),
    ("doc-escapes", {
        "_meta/prompt_manifest.json": '{"prompts": {"e": {"domain": "e"}}}',
        "_meta/placeholder_registry.json": '{"placeholders": {"\\u006b2": {"type": "static"}, "k": {"type": "static"}}}',
        "e.json": '{"variants": {"default": {"text": "\\u007b\\u007bk}} {{k}\\u007d \\ud83d\\ude00 {{k\\u0032}} {{k2}} {{caf\u00e9}} {{k}}"}}}',
    }),
    ("empty", {
        "_meta/prompt_manifest.json": '{"prompts": {}}',
        "_meta/placeholder_registry.json": '{"placeholders": {}}',
    }),
    ("outside", {
        "_meta/prompt_manifest.json": '{"prompts": {"x": {"domain_file": "../x.json"}, "y": {"domain_file": "a//b.json"}, "z": {"domain_file": "C:\\\\x.json"}}}',
        "_meta/placeholder_registry.json": '{"placeholders": {"bad name": {"type": "sometimes"}}}',
    }),
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
        config_path = folder / "promptic.json"
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


def keep_input(tags, docs):
    return SEP.join([tags] + [doc_id.encode() + b"\n" + content for doc_id, content in docs])


def store_input(files):
    return SEP.join(path.encode() + b"\n" + body for path, body in files)


def keep_seeds():
    """Families of the prompts folders (each member's frontmatter `"match"`), tagged with
    every pair of their rules, and keep's documents."""
    count = 0
    for folder in [REPO / "prompts/summarize"] + sorted((REPO / "tests/ui/prompts").glob("fam*")):
        members = [(p.stem, p.read_bytes()) for p in sorted(folder.glob("*.md"))]
        tags = b" ".join(sorted({
            pair.encode()
            for _, text in members
            for line in text.decode(errors="replace").splitlines()
            if '"match"' in line
            for pair in line.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split()
            if "=" in pair
        }))
        tag = folder.relative_to(REPO).as_posix().replace("/", "_")
        write("keep_docs", f"folder-{tag}", keep_input(tags, members))
        count += 1
    for name, tags, docs in KEEP_EXTRA:
        write("keep_docs", f"extra-{name}", keep_input(tags.encode(), [(i, c.encode()) for i, c in docs]))
        count += 1
    return count


def store_seeds():
    """The store folders of the examples and the tests, then what they do not show."""
    count = 0
    folders = [REPO / "examples/persona_prompts", REPO / "tests/stores/code_style"]
    folders += sorted(p for p in (REPO / "tests/ui/stores").iterdir() if p.is_dir())
    for folder in folders:
        files = [
            (p.relative_to(folder).as_posix(), p.read_bytes())
            for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()
        ]
        write("store_folder", f"{folder.parent.name}-{folder.name}", store_input(files))
        count += 1
    for name, files in STORE_EXTRA:
        write("store_folder", f"extra-{name}", store_input([(p, t.encode()) for p, t in files.items()]))
        count += 1
    return count


ARCHIVE_METADATA = '{"format": "promptic-store-archive", "format_version": 1, "promptic_version": "0.1.0"}'
ARCHIVE_MANIFEST = """{"prompts": {
  "greeting": {"domain": "prompts/greeting.json", "order": 5},
  "rules": {"variants": {"default": {"enabled": false}}},
  "theirs": {"domain": "prompts/theirs.json"}
}}"""
ARCHIVE_GREETING = '{"id": "greeting", "variants": {"default": {"text": "Hey {{char_name}}."}, "short": {"text": "Hey."}}}'
ARCHIVE_THEIRS = '{"id": "theirs", "variants": {"default": {"text": "Theirs, {{mood}}."}}}'
ARCHIVE_LAYER = [
    ("metadata.json", ARCHIVE_METADATA),
    ("_meta/user_manifest.json", ARCHIVE_MANIFEST),
    ("prompts/greeting.json", ARCHIVE_GREETING),
    ("prompts/theirs.json", ARCHIVE_THEIRS),
]

# Archives for the `store_archive` target's defaults (`fuzz/src/store_archive.rs`): a
# user layer as `export_prompts` writes it, and what an import must refuse. Most are
# stored, not deflated, so that the fuzzer's mutations reach the JSON inside.
ARCHIVE_EXTRA = [
    ("layer-stored", ARCHIVE_LAYER, zipfile.ZIP_STORED),
    ("layer-deflated", ARCHIVE_LAYER, zipfile.ZIP_DEFLATED),
    ("empty-layer", [("metadata.json", ARCHIVE_METADATA)], zipfile.ZIP_STORED),
    ("code-form", [
        ("metadata.json", ARCHIVE_METADATA),
        ("_meta/user_manifest.json", '{"prompts": {"rules": {"domain_file": "prompts/rules.json", "requires_any": []}}}'),
        ("prompts/rules.json", '{"rules": {"variants": {"default": {"content": "Calm, {{char_name}}."}}}}'),
    ], zipfile.ZIP_STORED),
    ("user-registry", [
        ("metadata.json", ARCHIVE_METADATA),
        ("_meta/user_placeholder_registry.json", '{"placeholders": {"char_name": {"type": "static", "default": "Luna"}}}'),
        ("_meta/user_manifest.json", '{"prompts": {"example": {"enabled": false}}}'),
    ], zipfile.ZIP_STORED),
    ("folders", [("_meta/", ""), ("prompts/", "")] + ARCHIVE_LAYER, zipfile.ZIP_STORED),
    ("typo", ARCHIVE_LAYER[:3] + [("prompts/theirs.json", ARCHIVE_THEIRS.replace("mood", "mod"))], zipfile.ZIP_STORED),
    ("dotdot", ARCHIVE_LAYER + [("../outside.json", "{}")], zipfile.ZIP_STORED),
    ("unnamed", ARCHIVE_LAYER + [("prompts/other.json", "{}")], zipfile.ZIP_STORED),
    ("no-metadata", ARCHIVE_LAYER[1:], zipfile.ZIP_STORED),
    ("symlink", ARCHIVE_LAYER + [("prompts/link.json", "/etc/passwd", 0o120777)], zipfile.ZIP_STORED),
]


def archive_input(entries, method):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zip_file:
        for entry in entries:
            name, text = entry[0], entry[1]
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            mode = entry[2] if len(entry) > 2 else (0o40755 if name.endswith("/") else 0o100644)
            info.external_attr = mode << 16
            zip_file.writestr(info, text)
    return out.getvalue()


def archive_seeds():
    for name, entries, method in ARCHIVE_EXTRA:
        write("store_archive", name, archive_input(entries, method))
    write("store_archive", "not-a-zip", ARCHIVE_MANIFEST.encode())
    return len(ARCHIVE_EXTRA) + 1


# Values for the Jinja seeds: strings, numbers, lists, maps, a struct-like dict, none.
JINJA_VALUES = {
    "date": "2026-03-02", "desk": "the desk", "guidance": "lean", "user": {"name": "Ada", "locale": "de-CH"},
    "markets": ["a", "b"], "tools": [{"name": "search", "kind": "web", "slow": True, "retired": False, "cost": 2}],
    "limits": {"calls": 40, "z": 1.5}, "notes": "  n  ", "flag": True, "n": 3, "xs": ["a", "b", "c"], "none": None,
}

JINJA_EXTRA = [
    "{% for k, v in m.items() if v > 1 %}{{ loop.index }}{{ k }}={{ v }}{% else %}none{% endfor %}",
    "{% set x = xs | join(',') %}{{ x | upper }}{{ xs[0] }}{{ s.startswith('a') }}{{ s.split(',')[1] }}",
    "{% raw %}{{ kept }}{% endraw %}{# c #}{{- s -}}  {%- if a -%} x {%+ endif %}",
    "{% include 'p.j2' %}{% include 'parts/p.j2' %}{% include 'missing.j2' %}",
    "{{ " + "(" * 300 + "1" + ")" * 300 + " }}",
    "{% if a %}" * 200 + "x" + "{% endif %}" * 200,
    "{{ m | tojson }}{{ [1, 'a', none, true] }}{{ 1.5 }}{{ 1e300 * 1 }}",
]


def jinja_seeds():
    count = 0
    values = json.dumps(JINJA_VALUES).encode()
    files = sorted(REPO.glob("prompts/**/*.j2")) + sorted(REPO.glob("tests/ui_jinja/prompts/**/*.j2")) \
        + sorted(REPO.glob("benches/jinja/**/*.j2"))
    part = (REPO / "prompts/components/trip_rules.md.j2").read_bytes()
    for i, path in enumerate(files):
        flags = bytes([i % 8])
        write("jinja", f"file-{i:02}-{path.parent.name}-{path.stem}", flags + values + SEP + path.read_bytes() + SEP + part)
        count += 1
    for i, text in enumerate(JINJA_EXTRA):
        write("jinja", f"extra-{i:02}", bytes([7]) + values + SEP + text.encode() + SEP + b"P{{ xs | length }}{% include 'p.j2' %}")
        count += 1
    # Macros imported from the other file, called with and without a body.
    library = b"{% macro m(x, mark='-') %}{{ mark }}{{ x }}{% endmacro %}{% macro n(y) %}({{ caller() }}{{ y }}){% endmacro %}"
    for i, text in enumerate(JINJA_IMPORTS):
        write("jinja", f"import-{i:02}", bytes([i % 8]) + values + SEP + text.encode() + SEP + library)
        count += 1
    return count


JINJA_IMPORTS = [
    "{% from 'p.j2' import m, n as k %}{% with a = xs | length, b = s %}{{ m(a) }}{% endwith %}"
    "{% macro box() %}{% for i in range(2) %}{{ caller() }}{% endfor %}{% endmacro %}{% call box() %}<{{ s }}>{% endcall %}",
    "{% import 'parts/p.j2' as lib %}{{ lib.m(s | striptags, mark='*') }}{{ xs | pprint }}{{ s | urlencode }}"
    "{{ s.ljust(9, '.') }}{{ s.splitlines() }}{{ xs | slice(2) | list }}{{ dict(a=s) | xmlattr }}{{ 'upper' is filter }}",
    "{% from 'p.j2' import m %}{% from 'p.j2' import mm %}{% import 'p.j2' as q %}{{ q.nope() }}",
]


DOTPROMPT_DATA = {
    "input": {"name": "Ada", "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 0}], "flag": True},
    "context": {"state": {"turn": 2}, "auth": {"uid": "u1"}},
    "messages": [{"role": "user", "content": [{"text": "hi"}]}, {"role": "model", "content": [{"text": "hello"}]}],
}

DOTPROMPT_EXTRA = [
    "---\nmodel: m\ninput:\n  schema:\n    name: string\n    items(array):\n      sku: string\n      qty?: integer, how many\n"
    "output:\n  format: json\n  schema:\n    ok: boolean\n---\n{{role \"system\"}}Hi {{name}}.\n{{#each items}}{{@index}} {{sku}}{{#if @last}}.{{/if}}{{/each}}\n"
    "{{> p who=name}}{{history}}{{role \"user\"}}{{media url=\"http://x/a.png\"}}{{section \"s\"}}{{json items indent=2}}",
    "{{#with missing}}{{this}}{{else}}none{{/with}}{{#unless flag}}u{{/unless}}{{#ifEquals name \"Ada\"}}A{{/ifEquals}}{{~ name ~}}",
    "{{#if a}}" * 300 + "x" + "{{/if}}" * 300,
    "---\ninput:\n  default:\n    name: Bo\n---\n{{@state.turn}} {{@auth.uid}} {{@root.name}} {{! c }}{{!-- c --}}",
    "---\n" + "a:\n" + "  " * 200 + "b: 1\n---\nx",
    "{{> p}}{{> p}}{{> q}}",
]


def dotprompt_seeds():
    count = 0
    data = json.dumps(DOTPROMPT_DATA).encode()
    files = sorted(REPO.glob("prompts/**/*.prompt")) + sorted(REPO.glob("tests/ui_dotprompt/**/*.prompt")) \
        + sorted(REPO.glob("examples/**/*.prompt")) + sorted(REPO.glob("benches/**/*.prompt"))
    for i, path in enumerate(files):
        write("dotprompt", f"file-{i:02}-{path.parent.name}-{path.stem}", data + SEP + path.read_bytes() + SEP + b"Hello {{who}}{{name}}")
        count += 1
    for i, text in enumerate(DOTPROMPT_EXTRA):
        write("dotprompt", f"extra-{i:02}", data + SEP + text.encode() + SEP + b"P{{#each items}}{{sku}}{{/each}}{{> p}}")
        count += 1
    return count


def main():
    for target in ["pipeline", "identity_json", "safe_substitute", "chat_template", "keep_docs", "store_folder", "store_archive", "jinja", "dotprompt"]:
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

    jsons = [p for f in FOLDERS.values() for p in [f / "promptic.json"] if p.is_file()]
    jsons += sorted((REPO / "promptic-cli/tests/fixtures/values").glob("*.json"))
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

    print(f"keep_docs: {keep_seeds()} seeds")
    print(f"store_folder: {store_seeds()} seeds")
    print(f"store_archive: {archive_seeds()} seeds")
    print(f"jinja: {jinja_seeds()} seeds")
    print(f"dotprompt: {dotprompt_seeds()} seeds")

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
