// Random dotprompt files, rendered by dotprompt's JavaScript reference (the `dotprompt` npm
// package, pinned in package.json and package-lock.json beside this file), written as the
// Rust table `cases.rs` that `tests/dotprompt_js.rs` checks promptic against, so the test
// needs no Node.js:
//
//     npm ci                                   # in this folder; node_modules is not committed
//     node cases.mjs rust 1 400 cases.rs && cargo fmt --all
//
// `node cases.mjs json SEED COUNT FILE.json` writes the same kind of cases as JSON instead,
// for `DOTPROMPT_JS_CASES=FILE.json cargo test -p prompt-runtime --test dotprompt_js`
// (the live check of `.ci/run`).
//
// The grammar keeps to what promptic reads. Left out on purpose:
// - subexpressions `(helper …)` and block parameters `as |x|`: promptic refuses both;
// - partials that are not defined: promptic refuses them when the file is read, JavaScript
//   only when a render reaches them (a documented difference);
// - invalid YAML: promptic refuses it, JavaScript renders the whole file as the body;
// - data that holds dotprompt's internal role markers (`<<<dotprompt:…>>>`): promptic never
//   reads data as markup;
// - `{{if x}}` without `#`, and inline helpers given a body (`{{#json x}}…{{/json}}`):
//   promptic refuses them when the file is read;
// - `{{role}}`, `{{section}}` and `{{media}}` without their argument: promptic refuses them
//   when the file is read, where JavaScript writes its internal role marker or `[object
//   Object]` into the text;
// - `{{else if …}}`: promptic does not read chained `else` (it is refused, as documented).
// - `{{#each this}}` in a partial given an argument whose value is undefined: JavaScript
//   keeps the key (with `undefined`) for the loop to go over, promptic leaves it out (a
//   documented difference).
import fs from "node:fs";
import { Dotprompt } from "dotprompt";
import { seeded } from "./random.mjs";

const [mode = "rust", seedArg = "1", countArg = "400", out = "cases.rs"] = process.argv.slice(2);
if (mode !== "rust" && mode !== "json") {
  console.error("usage: node cases.mjs rust|json SEED COUNT FILE");
  process.exit(2);
}

const { random, int, pick, chance } = seeded(seedArg);
const tilde = () => (chance(0.25) ? "~" : "");

const TEXT = ["a", " ", "\n", "  ", "x\n", "é", "\t", "\n\n", " b ", "😀", "\r\n", "<&>", "{", "}", "  \n  "];
const PATHS = [
  "name", "n", "flag", "items", "user.name", "user.missing", "missing", "this.name", "@root.name",
  "zero", "empty", "nil", "f", "html", "user.tags.[1]", "items.[0].sku", "items.length", "user/name",
  "keyed.[2]", "@root.user.age", "@state.t", "@auth.uid", "@missing", "big", "neg", "tags", "[name]",
  "user.[name]", "this", ".", "@metadata.prompt.model", "@metadata.prompt.config.temperature",
];
const IN_EACH = ["this", "sku", "qty", "@index", "@first", "@last", "@root.name", "../name", "this.sku", "@key", ".", "../flag", "../../name"];
const IN_OBJECT = ["this", "@key", "@index", "@first", "@last", "../n", "name", "age"];
const IN_WITH = ["name", "age", "missing", "../n", "@root.n", "this.name", "tags.[0]", "this"];
const CONDITIONS = ["zero includeZero=true", "n includeZero=false", "flag", "n", "zero", "empty", "items", "missing", "user", "user.missing", "nil", "name", "f", "neg", "@first", "html", "keyed"];

function path(scope) {
  const extra = { each: IN_EACH, object: IN_OBJECT, with: IN_WITH }[scope] || [];
  return pick(chance(0.5) && extra.length ? extra : PATHS);
}

function text() {
  let s = "";
  for (let i = int(0, 3); i > 0; i--) s += pick(TEXT);
  return s;
}

function mustache(scope) {
  const open = chance(0.1) ? pick(["{{{", "{{&"]) : "{{";
  const close = open === "{{{" ? "}}}" : "}}";
  return open + tilde() + path(scope) + tilde() + close;
}

function literal() {
  return pick(['"Ada"', '"3"', "3", "0", "true", "false", "null", "undefined", "1.5", "-2", "'q'"]);
}

function argument(scope) {
  return chance(0.35) ? literal() : path(scope);
}

function helper(scope) {
  switch (int(0, 13)) {
    case 0: return `{{role "${pick(["user", "model", "system", "user", "tool"])}"}}`;
    case 1: return "{{history}}";
    case 2: return `{{section "${pick(["s1", "s2"])}"}}`;
    case 3: return pick(['{{media url="http://x/a.png"}}', "{{media url=name}}", '{{media url=html contentType="image/png"}}', "{{media url=missing}}"]);
    case 4: return `{{json ${argument(scope)}}}`;
    case 5: return `{{json ${path(scope)} indent=${pick(["2", "0", "1", '"x"'])}}}`;
    case 6: return `{{lookup ${path(scope)} ${argument(scope)}}}`;
    case 7: return pick(['{{lookup items 1}}', '{{lookup user "name"}}', "{{lookup keyed 2}}", "{{lookup . \"n\"}}", '{{lookup tags "length"}}']);
    case 8: return `{{log ${argument(scope)}${chance(0.3) ? ' level="debug"' : ""}}}`;
    case 9: return pick(["{{!c}}", "{{! c }}", "{{!-- c }} --}}", "{{!-- --}}"]) + (chance(0.3) ? "\n" : "");
    case 10: return (chance(0.3) ? "\n" + pick(["", "  ", "\t"]) : "") + "{{" + tilde() + "> " + pick(["p", "q", "r"]) + partialArguments(scope) + tilde() + "}}";
    case 11: return pick(["\\{{name}}", "{{name}}}", "{{ name }}", "{{  user.name  }}"]);
    case 12: return pick(["{{@index}}", "{{@key}}", "{{@first}}", "{{@root}}", "{{@root.items.length}}", "{{json @metadata.prompt.raw}}", "{{json @metadata.messages}}", "{{#each @metadata.messages}}{{this.role}}{{/each}}"]);
    default: return mustache(scope);
  }
}

function partialArguments(scope) {
  let s = "";
  if (chance(0.3)) s += " " + pick(["user", "items", "this", "missing", "name", "@root"]);
  if (chance(0.5)) s += ` who=${argument(scope)}`;
  if (chance(0.2)) s += ` n=${argument(scope)}`;
  return s;
}

function tag(body) {
  return "{{" + tilde() + body + tilde() + "}}";
}

function block(depth, scope) {
  const k = int(0, 12);
  if (depth === 0 || k < 4) return pick([text, () => mustache(scope), () => helper(scope)])();
  if (k === 4) return helper(scope);
  const line = () => (chance(0.35) ? "\n" : "");
  if (k <= 6) {
    const name = pick(["if", "unless"]);
    let s = tag(`#${name} ${pick(CONDITIONS)}`) + line() + inner(depth - 1, scope);
    if (chance(0.4)) s += tag(pick(["else", "^"])) + line() + inner(depth - 1, scope);
    return s + tag(`/${name}`) + line();
  }
  if (k === 7) {
    const [target, within] = pick([["items", "each"], ["user", "object"], ["empty", "each"], ["missing", "each"], ["keyed", "object"], ["tags", "each"], ["name", "each"], ["@root", "object"],
      // Inside a loop: the same list again, whose items are (or equal, by `==`) the item around.
      ["../tags", "each"], ["../items", "each"]]);
    let s = tag(`#each ${target}`) + line() + inner(depth - 1, within);
    if (chance(0.3)) s += tag("else") + line() + inner(depth - 1, scope);
    return s + tag("/each") + line();
  }
  if (k === 8) {
    const target = pick(["user", "user", "missing", "items", "@root", "zero", "flag", "../user", "this"]);
    let s = tag(`#with ${target}`) + line() + inner(depth - 1, "with");
    if (chance(0.25)) s += tag("else") + line() + inner(depth - 1, scope);
    return s + tag("/with") + line();
  }
  if (k === 9) {
    const name = pick(["ifEquals", "unlessEquals"]);
    let s = tag(`#${name} ${argument(scope)} ${argument(scope)}`) + inner(depth - 1, scope);
    if (chance(0.4)) s += tag("else") + inner(depth - 1, scope);
    return s + tag(`/${name}`);
  }
  if (k === 10) return pick(["{{role \"system\"}}\n", "{{role \"user\"}}\n", "{{role \"model\"}}", "\n{{history}}\n"]) + body(depth - 1, scope);
  // Things JavaScript fails on; only where a render surely reaches them (outside blocks),
  // as promptic refuses them when the file is read.
  if (k === 11 && opened === 0 && chance(0.4)) {
    return pick([
      "{{#if flag}}open", "{{/if}}", "{{#if flag}}x{{/unless}}", "{{unknown name}}",
      "{{#each}}x{{/each}}", "{{#if}}x{{/if}}", "{{#if flag n}}x{{/if}}", "{{#with}}x{{/with}}",
      "{{json}}", "{{#ifEquals n}}x{{/ifEquals}}", "{{lookup}}",
      "{{name", "{{> p who=}}", "{{#each items}}{{else}}{{else}}{{/each}}", "{{else}}", "{{name.}}",
      "{{../name}}", "{{@index.x}}", "{{!-- open",
    ]);
  }
  return body(depth - 1, scope);
}

// How many blocks are open where the generator is.
let opened = 0;

function body(depth, scope) {
  let s = "";
  for (let i = int(0, 3); i > 0; i--) s += block(depth, scope);
  return s;
}

function inner(depth, scope) {
  opened++;
  const s = body(depth, scope);
  opened--;
  return s;
}

const FRONT = [
  () => "",
  () => "---\nmodel: m\n---\n",
  () => "---\n---\n",
  () => `---\nconfig:\n  temperature: ${pick(["0.5", "1", "2.0", "1e3"])}\n  stop: [a, "b"]\ninput:\n  default:\n    name: Bo\n    n: 7\n---\n`,
  () => "---\ninput:\n  schema:\n    name: string\n    n?: integer\n    items(array, the list):\n      sku: string\n      qty?: number\noutput:\n  format: json\n  schema:\n    ok: boolean, why\n---\n",
  () => "---\nmodel: vertexai/gemini\ninput:\n  schema:\n    user(object):\n      name: string\n      tags?(array): string\n    flag?: boolean\n    kind(enum, which one): [a, b, null]\n    '*': any\noutput:\n  schema: string\n---\n",
  () => "---\nmodel: m\nmyext.key: 1\nmyext.other: two\nother.k:\n  x: [1, 2]\ntools: [a, b]\nmetadata:\n  note: hi\ndescription: d\nversion: v1\n---\n",
  () => "---\ninput:\n  schema:\n    type: object\n    properties:\n      name: {type: string}\n  default:\n    flag: true\noutput:\n  format: text\n---\n",
  () => "---\nconfig: {}\nraw: 3\nvariant: v\n---\n" ,
  () => "---\ninput:\n  schema:\n    n: number, how many\n    f?: number\n    html: string\n    nil?: any\n    zero: integer\n---\n",
];

const PARTIALS = [
  ["p", () => "P[{{who}}{{name}}{{n}}]"],
  ["p", () => "{{#if flag}}P{{who}}{{/if}}\n"],
  ["p", () => "  {{this}}|{{@root.name}}|{{who}}\n"],
  ["p", () => "{{#each items}}{{sku}}{{../who}}{{/each}}"],
  ["q", () => "{{#if flag}}Q{{/if}}\n"],
  ["q", () => "q {{> r}} q"],
  ["q", () => "{{role \"system\"}}Q{{name}}"],
  ["q", () => "{{json this}}"],
  ["r", () => "R{{@index}}{{name}}\n\n"],
  ["r", () => "{{#with user}}{{name}}{{/with}}"],
  ["r", () => "{{~name~}}  "],
  // `../` at a partial's top level reaches nothing: a partial is a template of its own.
  ["r", () => "[{{../name}}{{name}}]"],
  ["q", () => "{{#with user}}{{../name}}|{{../../name}}{{/with}}"],
  // A partial's own context, with or without arguments over it.
  ["p", () => "{{#each @root}}<{{who}}{{@key}}>{{/each}}"],
  ["q", () => "{{#with this}}{{who}}{{../who}}{{/with}}"],
];

function partials() {
  const chosen = {};
  for (const [name, make] of PARTIALS) if (!(name in chosen) && chance(0.6)) chosen[name] = make();
  for (const name of ["p", "q", "r"]) if (!(name in chosen)) chosen[name] = pick(PARTIALS.filter((p) => p[0] === name))[1]();
  return chosen;
}

function data() {
  const input = {
    name: pick(["Ada", "", "é", "a<b>&\"'`="]),
    n: pick([0, 3, 1.5, -1, "3"]),
    flag: pick([true, false]),
    items: [{ sku: "a", qty: 2 }, { sku: "b", qty: 0 }, { sku: "", qty: 1.25 }].slice(0, int(0, 3)),
    user: pick(['{"name":"U","age":3,"tags":["x","y"]}', '{"name":"","age":0}', '{"age":1,"name":"V","0":"zero"}']),
    zero: 0,
    empty: [],
    nil: null,
    f: pick([0.1, 2.0, 1e21, -0.5, 123456789.125, 1e-7]),
    html: "<i>&amp;</i>",
    keyed: pick(['{"b":1,"2":"two","a":null,"1":"one"}', '{"z":false}', "{}"]),
    big: 9007199254740993,
    neg: -0,
    tags: pick([["t1", "t2"], [], ["", 0, false, null]]),
  };
  for (const key of Object.keys(input)) if (chance(0.08)) delete input[key];
  // Objects are written as JSON text, keys in the order given: JavaScript reads integer
  // keys first, whatever the order in the text.
  const raw = {};
  for (const key of ["user", "keyed"]) if (key in input) { raw[key] = input[key]; input[key] = `@@${key}@@`; }
  const result = { input };
  if (chance(0.6)) result.context = { state: { t: pick([1, "s", null]) }, auth: { uid: "u1" } };
  if (chance(0.5)) {
    result.messages = [
      { role: "user", content: [{ text: "hi" }] },
      { role: "model", content: [{ text: "yo" }, { media: { url: "http://x/b.png" } }] },
      { role: "system", content: [{ text: "s" }], metadata: { k: 1 } },
    ].slice(0, int(1, 3));
  }
  let text = JSON.stringify(result);
  for (const [key, json] of Object.entries(raw)) text = text.replace(`"@@${key}@@"`, json);
  return text;
}

async function render(template, partialMap, dataJson) {
  try {
    const dp = new Dotprompt({ partials: partialMap });
    const result = await dp.render(template, JSON.parse(dataJson));
    return { ok: JSON.stringify(result) };
  } catch (e) {
    return { err: String((e && e.message) || e).split("\n")[0] };
  }
}

// Handlebars' `log` writes to the console: keep it off standard output.
console.log = console.info = console.warn = console.debug = console.error = () => {};

const cases = [];
const count = Number(countArg);
for (let i = 0; i < count; i++) {
  const template = pick(FRONT)() + body(3, "top") + pick(["", "", "\n"]);
  const partialMap = partials();
  const dataJson = data();
  const result = await render(template, partialMap, dataJson);
  cases.push({ template, partials: partialMap, data: dataJson, ...result });
}

// A Rust string literal: JSON's escapes are Rust's, but for `\u{…}`, `\b` and `\f`.
function rust(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\u{" + c.toString(16) + "}";
    else out += ch;
  }
  return out + '"';
}

if (mode === "json") {
  fs.writeFileSync(out, JSON.stringify(cases));
} else {
  let s = `// Generated by cases.mjs (seed ${seedArg}) from the \`dotprompt\` npm package ${JSON.parse(fs.readFileSync(new URL("./node_modules/dotprompt/package.json", import.meta.url))).version}.\n`;
  s += "/// The template, its partials, the data as JSON, and what dotprompt's JavaScript\n";
  s += "/// implementation renders: the result as JSON, or its error message.\n";
  s += "pub(super) type Case = (\n    &'static str,\n    &'static [(&'static str, &'static str)],\n    &'static str,\n    Result<&'static str, &'static str>,\n);\n";
  s += "pub(super) const CASES: &[Case] = &[\n";
  for (const c of cases) {
    const parts = Object.entries(c.partials).map(([k, v]) => `(${rust(k)}, ${rust(v)})`).join(", ");
    const expected = "ok" in c ? `Ok(${rust(c.ok)})` : `Err(${rust(c.err)})`;
    s += `    (\n        ${rust(c.template)},\n        &[${parts}],\n        ${rust(c.data)},\n        ${expected},\n    ),\n`;
  }
  s += "];\n";
  fs.writeFileSync(out, s);
}
const failed = cases.filter((c) => "err" in c).length;
process.stderr.write(`${cases.length} cases, ${failed} of them errors in JavaScript\n`);
