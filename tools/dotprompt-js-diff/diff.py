"""Differential check of promptic's dotprompt front end against dotprompt's JS reference
(the `dotprompt` npm package): random templates (Handlebars blocks, `~`, comments, partials
with arguments, dotprompt's helpers, frontmatter with config, defaults and Picoschema)
with random data, rendered by `render.mjs` and by `promptic render NAME --dir DIR --data
DATA.json --json`, compared as JSON values (the whole result, as the spec runner does).

    npm install dotprompt          # in this folder (node_modules is not committed)
    cargo build -p promptic-cli
    python3 diff.py SEED COUNT [PROMPTIC_BIN]

Writes its cases under a new temporary folder; prints up to 12 differences and a tally.
"""
import json, random, subprocess, sys, shutil, pathlib, tempfile
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
HERE = pathlib.Path(__file__).resolve().parent
PK = sys.argv[3] if len(sys.argv) > 3 else str(HERE.parents[1] / "target/debug/promptic")
TEXT = ["a", " ", "\n", "  ", "x\n", "é", "\t", "\n\n", " b "]
PATHS = ["name", "n", "flag", "items", "user.name", "user.missing", "missing", "this.name", "@root.name", "zero", "empty", "nil", "f"]
IN_EACH = ["this", "sku", "qty", "@index", "@first", "@last", "@root.name", "../name", "this.sku"]
IN_OBJ_EACH = ["this", "@key", "@index"]
def text(): return "".join(rng.choice(TEXT) for _ in range(rng.randint(0, 3)))
def tilde(): return rng.choice(["", "", "~"])
def mustache(scope):
    pool = PATHS + (IN_EACH if scope == "each" else IN_OBJ_EACH if scope == "obj" else [])
    l, r = tilde(), tilde()
    return "{{" + l + rng.choice(pool) + r + "}}"
def cond(scope):
    return rng.choice(["flag", "n", "zero", "empty", "items", "missing", "user", "user.missing", "nil"] + (["@first", "@last", "qty"] if scope == "each" else []))
def block(depth, scope):
    k = rng.randint(0, 10)
    if depth == 0 or k < 4:
        return rng.choice([text, lambda: mustache(scope), lambda: mustache(scope)])()
    if k == 4:
        return "{{! c }}" if rng.random() < .5 else "{{!-- c }} --}}"
    if k == 5:
        h = rng.choice(["if", "unless"]); c = cond(scope)
        body = body_(depth - 1, scope)
        els = ("{{" + tilde() + "else" + tilde() + "}}" + body_(depth - 1, scope)) if rng.random() < .4 else ""
        return "{{" + tilde() + "#" + h + " " + c + tilde() + "}}" + body + els + "{{" + tilde() + "/" + h + tilde() + "}}"
    if k == 6:
        target, sc = rng.choice([("items", "each"), ("user", "obj"), ("empty", "each"), ("missing", "each")])
        els = ("{{else}}" + body_(depth - 1, scope)) if rng.random() < .3 else ""
        return "{{#each " + target + "}}" + body_(depth - 1, sc) + els + "{{/each}}"
    if k == 7:
        return "{{#with user}}" + rng.choice(["{{name}}", "{{missing}}", "{{../n}}"]) + body_(depth - 1, "obj") + "{{/with}}"
    if k == 8:
        return rng.choice(['{{role "user"}}', '{{role "model"}}', '{{role "system"}}', "{{history}}", '{{section "s1"}}', '{{media url="http://x/a.png"}}', '{{media url=name contentType="image/png"}}'])
    if k == 9:
        return rng.choice(["{{json items}}", "{{json user indent=2}}", '{{#ifEquals name "Ada"}}A{{else}}B{{/ifEquals}}', '{{#unlessEquals n 3}}U{{/unlessEquals}}'])
    return rng.choice(["{{> p}}", "{{> p who=name}}", "{{> q}}"])
def body_(depth, scope):
    return "".join(block(depth, scope) for _ in range(rng.randint(0, 3)))
FRONT = ["", "---\nmodel: m\n---\n", "---\nconfig:\n  temperature: 0.5\ninput:\n  default:\n    name: Bo\n---\n",
         "---\ninput:\n  schema:\n    name: string\n    n?: integer\noutput:\n  format: json\n  schema:\n    ok: boolean, why\n---\n"]
PARTIALS = {"p": "P[{{who}}{{name}}]", "q": "{{#if flag}}Q{{/if}}\n"}
cases = []
for i in range(N):
    data = {"input": {"name": rng.choice(["Ada", "", "é"]), "n": rng.choice([0, 3, 1.5]), "flag": rng.choice([True, False]),
                      "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 0}][: rng.randint(0, 2)], "user": {"name": "U", "age": 3},
                      "zero": 0, "empty": [], "nil": None, "f": rng.choice([0.1, 2.0, 1e21, -0.0])},
            "context": {"state": {"t": 1}}, "messages": [{"role": "user", "content": [{"text": "hi"}]}, {"role": "model", "content": [{"text": "yo"}]}] if rng.random() < .5 else []}
    t = rng.choice(FRONT) + body_(3, "top")
    cases.append({"template": t, "data": data, "partials": PARTIALS})
work = pathlib.Path(tempfile.mkdtemp(prefix="dotprompt-diff-"))
json.dump(cases, open(work / "cases.json", "w"))
subprocess.run(["node", str(HERE / "render.mjs"), str(work / "cases.json"), str(work / "js.json")], check=True)
js = json.load(open(work / "js.json"))
for name, src in PARTIALS.items():
    (work / f"_{name}.prompt").write_text(src)
tally = {"same": 0, "differ": 0, "both_err": 0, "pk_err": 0, "js_err": 0}
shown = 0
for i, (c, j) in enumerate(zip(cases, js)):
    (work / "t.prompt").write_text(c["template"]); (work / "d.json").write_text(json.dumps(c["data"]))
    p = subprocess.run([PK, "render", "t", "--dir", str(work), "--data", str(work / "d.json"), "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        k = "both_err" if "err" in j else "pk_err"
        tally[k] += 1
        if k == "pk_err" and shown < 12:
            shown += 1; print("PK ERR", repr(c["template"]), p.stderr[:300])
        continue
    if "err" in j:
        tally["js_err"] += 1
        if shown < 12: shown += 1; print("JS ERR", repr(c["template"]), j["err"][:200])
        continue
    ours = json.loads(p.stdout)
    if ours == j["ok"]:
        tally["same"] += 1
    else:
        tally["differ"] += 1
        if shown < 12:
            shown += 1
            print("DIFF", repr(c["template"]), json.dumps(c["data"]["input"])[:200])
            print("  js:", json.dumps(j["ok"])[:600]); print("  pk:", json.dumps(ours)[:600])
print(tally)
