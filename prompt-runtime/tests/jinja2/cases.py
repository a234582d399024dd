# Renders each case with Jinja2 and writes the Rust table `cases.rs` next to this file:
#     python3 -m venv /tmp/j2 && /tmp/j2/bin/pip install jinja2
#     /tmp/j2/bin/python cases.py cases.rs && cargo fmt --all
# The templates and values are written for promptic's tests.
import json, sys, jinja2
cases = []
def case(t, v=None, o="", files=None):
    cases.append((o, t, v or {}, files or {}))

W = ["", "t", "l", "k", "tl", "tlk", "lk", "tk"]
ws_templates = [
    "a\n{% if x %}\nyes\n{% endif %}\nb\n",
    "a\n  {% if x %}\n  yes\n  {% endif %}\nb",
    "  {% if x %}in{% endif %}  \n",
    "line {% if x %}mid{% else %}other{% endif %} end\n",
    "a {{ x }}\n  {{ x }}\n",
    "{# c #}\n  {# c2 #}\nz\n",
    "a  {%- if x -%}  b  {%- endif -%}  \n\n c",
    "a {{- x -}} \n b",
    "x\n\t{% for i in [1,2] %}\n\t- {{ i }}\n\t{% endfor %}\n",
    "{% raw %}\n  {{ not }} {% this %}\n  {% endraw %}\nafter\n",
    "{% raw -%}\n  kept {{ x }}\n{%- endraw %}\n",
    "a\n   {%+ if x %}p{% endif %}\n",
    "{% if x +%}\nkeep\n{% endif %}\n",
    "\n\n",
    "end\n\n",
    "{% if x %}{% endif %}\n",
    "  {% if x %}{% endif %}\n  ",
    "x \u3000{% if x %}u{% endif %}\n",
    "{{ x }}\n  {% if x %}k{% endif %}",
    "a {# one -#}   \n\n b {#- two #} c",
    "{% if x -%}\n\n  a\n{%- endif %}",
]
for t in ws_templates:
    for o in W:
        case(t, {"x": True}, o)

exprs = [
    ("{{ s }}", {"s": "plain"}),
    ("{{ n }} {{ f }} {{ b }} {{ z }}", {"n": 42, "f": 2.5, "b": True, "z": None}),
    ("{{ f1 }} {{ f2 }} {{ f3 }} {{ f4 }} {{ f5 }} {{ f6 }}", {"f1": 1.0, "f2": 1e16, "f3": 1e-5, "f4": 0.0001, "f5": 123456789.125, "f6": -0.5}),
    ("{{ xs }}", {"xs": ["a", 1, None, True, 2.0, "it's", "say \"hi\"", "both ' \"", "tab\there\nnl", "\\"]}),
    ("{{ d }}", {"d": {"a": [1, {"c": None}], "b": 1}}),
    ("{{ d | tojson }}", {"d": {"z": "<b>&'x'</b>", "a": [1, 2.5, None, False], "u": "é€😀\u007f\u0001"}}),
    ("{{ 'x' | tojson }} {{ 3 | tojson }} {{ none | tojson }}", {}),
    ("{{ u.name | default('User') }} / {{ u.tz | default('UTC') }}", {"u": {"name": "Ada"}}),
    ("{{ a | default('d', true) }}|{{ b | default('d', true) }}|{{ c | default('d') }}|{{ e | default }}|", {"a": "", "b": 0, "c": ""}),
    ("{{ xs | join(', ') }} {{ xs | join }} {{ 'abc' | join('-') }} {{ m | join('+') }}", {"xs": [1, "b", None], "m": {"j": 2, "k": 1}}),
    ("[{{ '  pad \n' | trim }}] [{{ 'xxhixx' | trim('x') }}]", {}),
    ("{{ 'MiXed ß' | upper }} {{ 'MiXed' | lower }} {{ 3 | upper }} {{ none | lower }}", {}),
    ("{{ 'héllo' | length }} {{ [1,2,3] | length }} {{ m | length }}", {"m": {"a": 1}}),
    ("{{ xs[0] }} {{ xs[-1] }} {{ m['k'] }} {{ m.k }} {{ s[1] }}", {"xs": [1, 2, 3], "m": {"k": "v"}, "s": "abc"}),
    ("{{ w.split(':')[0] }} and {{ w.split(':')[1] }} {{ ' a  b '.split() }}", {"w": "3:17"}),
    ("{% if loc.startswith('en') %}en{% else %}other{% endif %}", {"loc": "en-US"}),
    ("{% if loc and not loc.startswith('en') %}x{% else %}y{% endif %}", {"loc": "de-DE"}),
    ("{% if n > 0 %}pos{% elif n == 0 %}zero{% else %}neg{% endif %}", {"n": 0}),
    ("{% if n > 0 %}pos{% elif n == 0 %}zero{% else %}neg{% endif %}", {"n": -3}),
    ("{% if ':' in s and s != '0:0' %}in{% endif %}|{% if 'q' not in s %}nq{% endif %}", {"s": "1:2"}),
    ("{% if 2 in xs %}two{% endif %}{% if 'k' in m %}k{% endif %}{% if 1 < 2 < 3 %}chain{% endif %}{% if 1 < 3 < 2 %}bad{% endif %}", {"xs": [1, 2], "m": {"k": 0}}),
    ("{% if x is defined %}d{% endif %}{% if y is not defined %}nd{% endif %}{% if z is none %}none{% endif %}{% if x is not none %}nn{% endif %}", {"x": 1, "z": None}),
    ("{% if g | default('detailed') == 'detailed' %}DETAIL{% endif %}", {}),
    ("{% if g | default('detailed') == 'detailed' %}DETAIL{% endif %}", {"g": "lean"}),
    ("{{ a and b }} {{ a or b }} {{ c or 'fallback' }} {{ not a }}", {"a": "x", "b": 0, "c": ""}),
    ("{{ True == 1 }} {{ 1 == 1.0 }} {{ [1, 2] == [1, 2] }} {{ none == none }} {{ 'a' < 'b' }} {{ [1, 2] < [1, 3] }}", {}),
    ("{% for x in xs %}{{ loop.index }}/{{ loop.length }}:{{ x }}{% if not loop.last %}, {% endif %}{% endfor %}", {"xs": ["a", "b", "c"]}),
    ("{% for x in xs %}{{ loop.index0 }}{{ loop.first }}{{ loop.revindex }}{{ loop.revindex0 }} {% endfor %}", {"xs": [5, 6]}),
    ("{% for x in xs if x > 1 %}{{ loop.index }}={{ x }} of {{ loop.length }};{% else %}none{% endfor %}", {"xs": [1, 2, 3]}),
    ("{% for x in xs if x > 9 %}{{ x }}{% else %}none{% endfor %}", {"xs": [1, 2, 3]}),
    ("{% for k, v in m.items() if k != 'skip' %}- {{ k }}: {{ v }}\n{% endfor %}", {"m": {"a": 1, "c": [3], "skip": 2}}),
    ("{% for k in m %}{{ k }}{% endfor %} {% for c in 'hey' %}{{ c }}.{% endfor %}", {"m": {"x": 1, "y": 2}}),
    ("{% for a, b in pairs %}{{ a }}{{ b }} {% endfor %}", {"pairs": [[1, 2], ["x", "y"]]}),
    ("{% for x in outer %}{% for y in x %}{{ loop.index }}{% endfor %}{{ loop.index }};{% endfor %}", {"outer": [[1, 2], [3]]}),
    ("{% set greeting = 'hi ' %}{{ greeting }}{{ name }}{% set name = 'b' %} {{ name }}", {"name": "a"}),
    ("{% set x = 5 %}{% for i in [1, 2] %}{{ x }}{% set x = i %}{{ x }}{% endfor %}|{{ x }}", {}),
    ("{% if true %}{% set x = 'in if' %}{% endif %}{{ x }}", {}),
    ("{{ 'a' 'b' }} {{ \"q\\\"uote\" }} {{ 'tab\\tx' }} {{ '\\u00e9' }}", {}),
    ("{{ [1, 'two', none] }} {{ [] }} {{ 1_000 }} {{ 1.5e3 }} {{ -2 }}", {}),
    ("{{ n }} {{ big }}", {"n": -7, "big": 18446744073709551615}),
    ("{{ m }}", {"m": {}}),
    ("{% for x in xs %}{{ x }}{% endfor %}", {"xs": []}),
    ("{{ x | default(none) is none }} {{ (x | default('a')) | upper }} {{ x | default('b') | upper }}", {}),
]
for t, v in exprs:
    case(t, v)
    case(t, v, "tlk")

# Values in the data's order, integers of any length: rendered once each.
data = [
    ("{% for k, v in d.items() %}{{k}}={{v}};{% endfor %}{{d}}", {"d": {"b": 1, "a": 2}}),
    ("{% for k in d %}{{ k }}{% endfor %} {{ d | tojson }} {{ d | length }}", {"d": {"z": 1, "a": {"y": 2, "b": 3}}}),
    ("{{ n }} {{ m }} {{ [n, m] }} {{ n | tojson }} {{ n > m }} {{ n == n }}", {"n": 100000000000000000000, "m": -340282366920938463463374607431768211457}),
    ("{{ f }} {{ g }}", {"f": 1e20, "g": 3.0}),
]
for t, v in data:
    case(t, v)

inc_files = {
    "components/head.md.j2": "# Head {{ title }}\n",
    "components/list.md.j2": "{% for i in items %}\n- {{ i }}\n{% endfor %}\n",
    "components/setter.md.j2": "{% set local = 'L' %}{{ local }}\n",
    "sub/roles/a.md.j2": "role {{ x }}{% include 'components/head.md.j2' %}",
}
inc = [
    "{% include 'components/head.md.j2' %}body\n",
    "start\n  {% include 'components/list.md.j2' %}\nend\n",
    "{% include 'components/setter.md.j2' %}[{{ local | default('gone') }}]\n",
    "{% for x in ['p', 'q'] %}{% include 'sub/roles/a.md.j2' %}{% endfor %}\n",
    "{% include './components//head.md.j2' %}",
    "{% set title = 'from set' %}{% include 'components/head.md.j2' %}",
]
for t in inc:
    for o in ["", "tlk"]:
        case(t, {"title": "T", "items": [1, 2], "x": "X"}, o, inc_files)

import tempfile, os
def render(o, t, v, files):
    d = tempfile.mkdtemp()
    for k, x in dict(files, **{"main.j2": t}).items():
        os.makedirs(os.path.dirname(os.path.join(d, k)), exist_ok=True)
        open(os.path.join(d, k), "w", newline="").write(x)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(d),
        trim_blocks="t" in o, lstrip_blocks="l" in o, keep_trailing_newline="k" in o)
    return env.get_template("main.j2").render(**v)

def rs(s):
    return json.dumps(s, ensure_ascii=False)

out = ["// Generated from Jinja2 " + jinja2.__version__ + ": each case is (options, template, values, included files, what Jinja2 renders).",
       "/// Options (`t` trim_blocks, `l` lstrip_blocks, `k` keep_trailing_newline), the template,",
       "/// the values as JSON, the files it includes, and what Jinja2 rendered.",
       "pub(super) type Case = (&'static str, &'static str, &'static str, &'static [(&'static str, &'static str)], &'static str);",
       "pub(super) const CASES: &[Case] = &["]
for o, t, v, files in cases:
    exp = render(o, t, v, files)
    fl = ", ".join("(%s, %s)" % (rs(k), rs(x)) for k, x in files.items())
    out.append("    (%s, %s, %s, &[%s], %s)," % (rs(o), rs(t), rs(json.dumps(v, ensure_ascii=False)), fl, rs(exp)))
out.append("];")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
print(len(cases))
