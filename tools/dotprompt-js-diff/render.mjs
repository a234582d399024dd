// Renders each case of a JSON file with dotprompt's JS reference (the `dotprompt` npm package)
// and writes the results (or errors) as JSON: the other half of diff.py.
import { Dotprompt } from "dotprompt";
import fs from "fs";
const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = [];
for (const c of cases) {
  try {
    const dp = new Dotprompt({ partials: c.partials });
    const r = await dp.render(c.template, c.data);
    out.push({ ok: JSON.parse(JSON.stringify(r)) });
  } catch (e) {
    out.push({ err: String(e.message || e) });
  }
}
fs.writeFileSync(process.argv[3], JSON.stringify(out));
