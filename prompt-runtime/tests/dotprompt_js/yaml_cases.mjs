// YAML frontmatter read by dotprompt's JavaScript implementation (the `dotprompt` npm
// package's `parse`, which reads it with the `yaml` package's defaults and keeps it as
// `raw`), written as the Rust table
// `yaml_cases.rs` that `tests/dotprompt_yaml.rs` checks promptic's reader against, so the
// test needs no Node.js:
//
//     npm ci                                          # in this folder
//     node yaml_cases.mjs 1 600 yaml_cases.rs && cargo fmt --all
//
// Every case is a mapping (promptic refuses other frontmatter). Left out on purpose, as
// promptic refuses them where JavaScript gives no useful value: a list or mapping used as
// a key (JavaScript writes it as YAML text), an alias inside the node it names, and the
// YAML 1.1 types `yaml` still reads when tagged (`!!binary` is a Node.js Buffer, `!!set`,
// `!!omap`, `!!pairs`, `!!timestamp`, `!!merge`).
import fs from "node:fs";
import { Dotprompt } from "dotprompt";
import { seeded } from "./random.mjs";

// The package warns (unresolved tags) on stderr; the cases keep only values and errors.
process.removeAllListeners("warning");

const [seedArg = "1", countArg = "600", out = "yaml_cases.rs"] = process.argv.slice(2);

const { random, int, pick, chance } = seeded(seedArg);

// Plain scalars at the edges of the core schema's rules.
const PLAIN = [
  "x", "hello world", "0", "1", "-7", "+12", "012", "007", "1_000", "3.25", ".5", "5.", "+.5",
  "-1.5e-3", "1e3", "1E+3", "2e", "1.2.3", "0x1F", "0xff", "-0x1F", "0o17", "0o8", "0b101",
  "9007199254740993", "100000000000000000000", "123456789012345678901234567890", "1e400",
  "-0", "0.0", "-0.0", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "NaN", "inf", "true",
  "True", "TRUE", "tRue", "false", "FALSE", "yes", "no", "on", "off", "y", "n", "~",
  "null", "Null", "NULL", "nULL", "2001-12-14", "12:30", "1,000", "a: b", "é", "😀",
  "sku-1", "x y", "3 apples", ".", "-", "+", "0x", "0o",
];
const QUOTED = [
  "'1'", "'true'", "'it''s'", "''", "\"\"", "\"null\"", "\"a\\tb\"", "\"\\u00e9\"",
  "\"line\\nbreak\"", "'~'", "\"0x1F\"", "\" spaced \"",
];
const TAGGED = [
  "!!str 12", "!!str true", "!!int '12'", "!!int abc", "!!int 0x10", "!!float 3",
  "!!float '2.5'", "!!float .inf", "!!bool yes", "!!bool 'True'", "!!null x", "!!null ''",
  "!foo 12", "! 12", "!<tag:yaml.org,2002:int> 7",
];
const KEYS = [
  "a", "b", "name", "n", "x y", "'q'", "\"dq\"", "1", "2", "10", "01", "-1", "1.5", "1.0",
  "0x1", "true", "false", "null", "~", "'1'", "<<", "a.b", "k", "é",
];

function scalar() {
  const r = random();
  if (r < 0.55) return pick(PLAIN);
  if (r < 0.8) return pick(QUOTED);
  return pick(TAGGED);
}

// A key for a mapping that has `used`: mostly one it does not have yet (a key written
// twice is an error, tested by a few cases, not by most).
function key(used) {
  let k = pick(KEYS);
  for (let i = 0; i < 4 && used.has(k) && !chance(0.05); i++) k = pick(KEYS);
  used.add(k);
  return k;
}

function flow(depth) {
  if (depth > 2 || chance(0.5)) return scalar();
  if (chance(0.5)) {
    const items = [];
    for (let i = int(0, 3); i > 0; i--) items.push(flow(depth + 1));
    return `[${items.join(", ")}]`;
  }
  const pairs = [];
  const used = new Set();
  for (let i = int(0, 3); i > 0; i--) pairs.push(`${key(used)}: ${flow(depth + 1)}`);
  return `{${pairs.join(", ")}}`;
}

// A block node's lines at `indent`, after a key (`key:`) or a dash.
function block(indent, depth, anchors) {
  const pad = " ".repeat(indent);
  const r = random();
  if (depth < 3 && r < 0.2) {
    // a nested mapping
    const lines = [];
    const used = new Set();
    for (let i = int(1, 3); i > 0; i--) {
      lines.push(...entry(indent + 2, depth + 1, anchors, used));
    }
    return ["", ...lines];
  }
  if (depth < 3 && r < 0.35) {
    const lines = [];
    for (let i = int(1, 3); i > 0; i--) {
      const inner = block(indent + 2, depth + 1, anchors);
      if (inner[0] === "") {
        lines.push(`${pad}  -`, ...inner.slice(1));
      } else {
        lines.push(`${pad}  - ${inner[0]}`, ...inner.slice(1));
      }
    }
    return ["", ...lines];
  }
  if (r < 0.45) {
    const style = pick(["|", "|-", "|+", ">", ">-", ">+"]);
    const body = [];
    for (let i = int(1, 3); i > 0; i--) body.push(`${pad}  ${pick(["one", "two words", "", "  more", "#x"])}`);
    return [style, ...body];
  }
  if (r < 0.55 && anchors.length > 0) return [`*${pick(anchors)}`];
  if (r < 0.65) {
    const name = `a${anchors.length}`;
    const value = flow(depth);
    anchors.push(name);
    return [`&${name} ${value}`];
  }
  if (r < 0.7) return [""];
  return [flow(depth)];
}

function entry(indent, depth, anchors, used) {
  const pad = " ".repeat(indent);
  const [first, ...rest] = block(indent, depth, anchors);
  const comment = chance(0.1) ? " # note" : "";
  const head = first === "" ? `${pad}${key(used)}:${comment}` : `${pad}${key(used)}: ${first}`;
  return [head, ...rest];
}

function frontmatter() {
  const anchors = [];
  const lines = [];
  const used = new Set();
  for (let i = int(1, 5); i > 0; i--) lines.push(...entry(0, 0, anchors, used));
  if (chance(0.1)) lines.push("# a comment");
  return lines.join("\n") + "\n";
}

// Cases written by hand: each rule of the module's documentation, once.
const FIXED = [
  "a: 1\na: 2\n",
  "1: a\n'1': b\n",
  "1: a\n1.0: b\n",
  "~: x\nnull: y\n",
  "a: &x 1\nb: *x\n",
  "a: &x [1, 2]\nb: *x\nc: *x\n",
  "a: 1\n...\nb: 2\n",
  "<<: {a: 1}\nb: 2\n",
  "b: 1\na: 2\n10: 3\n2: 4\n'01': 5\n",
  "a: &a [1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c]\n",
  "a: &a [1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n",
  "a: &a x\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n",
  "a: &e []\nb: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
  "a: &k key\n*k : value\n",
  "a: [1, 2\n",
  "a: b: c\n",
  "a:\n  - 1\n  -2\n",
  "a: \"unterminated\n",
  "a: *missing\n",
  "a: |\n  x\n\n  y\n\n\nb: 1\n",
  "a: >+\n  x\n  y\n\n",
  "%YAML 1.2\n---\na: 1\n",
  "a:\tb\n",
  "? a\n: b\n",
  "a: !!map {b: 1}\nc: !!seq [1]\n",
];

const cases = [];
const seen = new Set();
function add(yaml) {
  if (seen.has(yaml) || /^---$/m.test(yaml)) return;
  seen.add(yaml);
  // dotprompt logs a YAML error (and renders the whole file as the body).
  let logged = "";
  const log = console.error;
  console.error = (_what, error) => {
    logged = String(error?.message ?? error).split("\n")[0];
  };
  const parsed = new Dotprompt().parse(`---\n${yaml}---\nx`);
  console.error = log;
  const result = parsed.raw === undefined ? { err: logged } : { ok: JSON.stringify(parsed.raw) };
  cases.push([yaml, result]);
}
for (const yaml of FIXED) add(yaml);
const count = Number(countArg);
for (let tries = 0; cases.length < FIXED.length + count && tries < count * 20; tries++) {
  add(frontmatter());
}

// A Rust string literal.
const rust = (s) =>
  `"${[...s]
    .map((c) => {
      if (c === "\\") return "\\\\";
      if (c === '"') return '\\"';
      if (c === "\n") return "\\n";
      if (c === "\t") return "\\t";
      if (c === "\r") return "\\r";
      const code = c.codePointAt(0);
      return code < 0x20 || code === 0x7f ? `\\u{${code.toString(16)}}` : c;
    })
    .join("")}"`;
let text = `// Generated by yaml_cases.mjs (seed ${seedArg}) from the \`yaml\` npm package ${
  JSON.parse(fs.readFileSync(new URL("node_modules/yaml/package.json", import.meta.url))).version
}.\n`;
text += "/// YAML frontmatter and what JavaScript reads from it: the object as JSON, or the error.\n";
text += "pub(super) const CASES: &[(&str, Result<&str, &str>)] = &[\n";
for (const [yaml, result] of cases) {
  const value = result.ok !== undefined ? `Ok(${rust(result.ok)})` : `Err(${rust(result.err)})`;
  text += `    (${rust(yaml)}, ${value}),\n`;
}
text += "];\n";
fs.writeFileSync(out, text);
console.log(`${cases.length} cases written to ${out}`);
