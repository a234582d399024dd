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
    ("{% for k, v in m.items() %}{{ k | default('x') }}={{ v | default(7) }};{% endfor %}{% set ns = namespace(a=1) %}{{ ns.a | default(2) }} {{ z | default('d') }} {{ u.nick | default(3) }} {{ e | default }}|{{ n | default(1.5) }}", {"m": {"b": None, "a": 0}, "z": None, "u": {}, "n": 12}),
    ("{{ 'mémoire Straße' | upper }} {{ 'ΣΑΣ ΣΑΣ' | lower }} {{ 'ÉTÉ Σ' | lower }} {{ 'aé' | upper }}", {}),
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

# Python's `%` formatting: the operator on text and the `format` filter.
percent = [
    ("{{ '%.2f' | format(p) }} {{ '%5.1f%%' % p }} {{ '%d items' % n }} {{ '%s and %r' % (s, s) }}", {"p": 2.675, "n": 3, "s": "it's"}),
    ("{{ '%(who)s owes %(sum)08.2f' | format(who=s, sum=p) }} {{ '%s' | format(who=s) }} {{ p | format }}", {"p": -1234.5, "s": "Ann"}),
    ("{{ '%+d|% d|%-4d|%04d|%#x|%#o|%X' % (n, n, n, n, n, n, n) }}", {"n": 255}),
    ("{{ '%e %E %g %G %.3g' % (f, f, f, f, f) }} {{ '%c%c' % (65, 'é') }} {{ '%.1s' % s }}", {"f": 0.000012345, "s": "xyz"}),
    ("{{ '%s' % xs }} {{ '%s' % (xs,) }} {{ '%(a)s' % d }} {{ '%d' % big }} {{ '%x' % big }}", {"xs": [1, "a", None], "d": {"a": 1}, "big": 100000000000000000000000000000}),
]
for t, v in percent:
    case(t, v)

# `groupby`: pairs read as `.grouper` and `.list`, unpacked, printed, by a path or an index.
G = {"xs": [{"a": 2, "kind": "B", "p": {"q": 1}}, {"a": 1, "kind": "b", "p": {"q": 0}}, {"a": 2, "kind": "A", "p": {"q": 1}}],
     "ys": [{"a": 1}, {}], "zs": [[1, "x"], [0, "y"], [1, "z"]]}
grouped = [
    "{{ xs | groupby('a') }}",
    "{% for g in xs | groupby('kind') %}{{ g.grouper }}:{{ g.list | length }}:{% for i in g.list %}{{ i.a }}{% endfor %};{% endfor %}",
    "{% for k, items in xs | groupby('kind', case_sensitive=true) %}{{ k }}={{ items | map(attribute='a') | join(',') }};{% endfor %}",
    "{{ ys | groupby('a', default=0) }} {{ zs | groupby(0) }} {{ (xs | groupby('a'))[0][0] }} {{ xs | groupby('p.q') | length }}",
]
for t in grouped:
    case(t, G)

# HTML and URL filters: `striptags` (comments, tags, whitespace, entities), `forceescape`,
# `urlencode` of text, a dict and pairs, `xmlattr`, `filesizeformat`, `slice`.
H = {"page": "<div class='x'>Tea &amp; <b>cakes</b>\n\n<!-- note <i>x</i> -->at&nbsp;4 &lt;pm&gt; &#8364;5 &copy &notit;</div>",
     "q": "a b/c?d=é&x", "d": {"q": "rust lang", "page": 2, "n": None}, "pairs": [["a", 1], ("b", "x y")],
     "attrs": {"class": "card", "id": 'say "hi"', "hidden": None}, "sizes": [0, 1, 999, 1000, 1500000, 1073741824, -5.5, "2048", 10**30],
     "xs": [1, 2, 3, 4, 5, 6, 7], "raw": "<b>\"x\" & 'y'</b>"}
html_filters = [
    "{{ page | striptags }}|{{ '<p>a</p>   <p>b</p>' | striptags }}|{{ 3 | striptags }}",
    "{{ raw | forceescape }} {{ 7 | forceescape }}",
    "{{ q | urlencode }} {{ d | urlencode }} {{ pairs | urlencode }} {{ 42 | urlencode }} {{ 'ü~_.-' | urlencode }}",
    "<p{{ attrs | xmlattr }}> <p {{ attrs | xmlattr(false) }}> [{{ {} | xmlattr }}]",
    "{% for s in sizes %}{{ s | filesizeformat }}; {{ s | filesizeformat(true) }}; {% endfor %}",
    "{{ xs | slice(3) | list }} {{ xs | slice(3, 0) | list }} {{ xs | slice(10) | list | length }} {% for col in xs | slice(2) %}[{{ col | join(',') }}]{% endfor %} {{ 'abc' | slice(2) | list }}",
]
for t in html_filters:
    case(t, H)

# `pprint`: Python's `pprint.pformat`, short values as their repr with dicts sorted, long
# ones an item a line, long strings cut at word ends.
PP = {"small": {"b": 1, "a": [True, None]},
      "tools": [{"name": "search_web", "description": "Searches the web for pages that answer the question, with snippets.", "args": {"query": "str", "limit": 10}},
                {"name": "x", "tags": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]}],
      "text": "A long line of prose that goes on past the width pprint allows for a single string, so it is cut.\nThen a second line.",
      "nested": [[["deep", "deeper", "the deepest words of all that there are here"], {"k": "a value long enough to make the dict wrap past eighty"}], 3],
      "pairs": {"zeta": "z" * 70, "alpha": "a" * 75}}
for t in ["{{ small | pprint }}|{{ 'x' | pprint }}|{{ 3 | pprint }}|{{ none | pprint }}",
          "{{ tools | pprint }}", "{{ text | pprint }}", "{{ nested | pprint }}", "{{ pairs | pprint }}",
          "{{ pairs.items() | list | pprint }}"]:
    case(t, PP)

# `{% with %}`: names bound for its body alone, each value read outside it; `set`s inside
# stay inside; an include inside sees the names.
WV = {"who": "Ada", "xs": [1, 2, 3], "d": {"k": "v"}}
WF = {"card.j2": "(card {{ title }} for {{ who }})"}
for t in ["{% with a = who, n = xs | length %}{{ a }}:{{ n }}{% endwith %}|{{ a is defined }}",
          "{% set a = 'out' %}{% with a = 'in', b = a %}{{ a }}/{{ b }}{% set a = 'x' %}{{ a }}{% endwith %}/{{ a }}",
          "{% for x in xs %}{% with y = x * 2, last = loop.last %}{{ y }}{{ '' if last else ',' }}{% endwith %}{% endfor %}",
          "{% with title = 'T' %}{% include 'card.j2' %}{% endwith %}",
          "{% with %}{% set z = d.k %}{{ z }}{% endwith %}[{{ z is defined }}]",
          "{% macro m(x) %}<{{ x }}>{% endmacro %}{% with t = m(who) | upper %}{{ t }}{% with t = t ~ '!' %}{{ t }}{% endwith %}{{ t }}{% endwith %}",
          "a\n  {% with v = 1 %}\n  {{ v }}\n  {% endwith %}\nb\n"]:
    for o in ["", "tlk"]:
        case(t, WV, o, WF)

# Macros imported from another template: `from … import`, `as`, `import … as`, macros that
# call the other template's macros, includes inside them, and a default.
IV = {"who": "Ada", "ts": [{"name": "a", "kind": "Web"}, {"name": "b", "kind": "Math"}]}
IF = {"lib/m.j2": "{% macro line(t, mark='-') %}{{ mark }} {{ t.name }} ({{ t.kind | lower }}){% endmacro %}\n{% macro all(ts) %}{% for t in ts %}{{ line(t) }}\n{% endfor %}{% endmacro %}\n{% macro boxed(x) %}[{% include 'lib/part.j2' %}{{ x }}]{% endmacro %}\ntop text is not imported\n",
      "lib/part.j2": "part:"}
for t in ["{% from 'lib/m.j2' import line, all as every %}{{ line(ts[0]) }}|{{ line(ts[1], mark='*') }}\n{{ every(ts) }}",
          "{% import 'lib/m.j2' as m %}{{ m.all(ts) | upper }}{{ m.boxed(who) }}",
          "{% from 'lib/m.j2' import boxed with context %}{% for t in ts %}{{ boxed(t.name) }}{% endfor %}",
          "{% import 'lib/m.j2' as m without context %}{% set s = m.line(ts[0]) %}{{ s | length }} {{ s }}"]:
    for o in ["", "tlk"]:
        case(t, IV, o, IF)

# The tests `callable`, `escaped`, `filter`, `test`, `sameas`, and `dict(...)`.
TV = {"n": 3, "s": "upper", "z": None, "t": True, "d": {"a": 1}}
for t in ["{% macro m() %}{% endmacro %}{{ m is callable }} {{ n is callable }} {{ d is callable }} {{ s is escaped }} {{ s is filter }} {{ 'nope' is filter }} {{ 'odd' is test }} {{ s is test }} {{ 'random' is filter }}",
          "{{ z is sameas none }} {{ t is sameas true }} {{ t is sameas false }} {{ n is not sameas none }} {{ undefined_x is sameas none }} {{ 1 is sameas(true) }}",
          "{% set e = dict(b=n, a='x', c=d) %}{{ e }} {{ e | length }} {{ dict() }} {{ dict(k=[1, 2]).k[1] }}{% for k, v in dict(y=1, x=2).items() %} {{ k }}={{ v }}{% endfor %}"]:
    case(t, TV)

# More of Python's string methods: padding, lines, prefixes, partitions, searches, tests.
SV = {"s": "Tea", "n": "-42", "text": "one\ntwo\r\nthree\x0bfour\u2028five\n", "path": "docs/guide.md", "sp": " \t\n", "e": ""}
for t in ["[{{ s.ljust(6) }}|{{ s.rjust(6, '*') }}|{{ s.center(8, '-') }}|{{ s.center(7) }}|{{ s.ljust(2) }}|{{ n.zfill(6) }}|{{ '+7'.zfill(4) }}|{{ s.zfill(2) }}|{{ s.rjust(true) }}]",
          "{{ text.splitlines() }} {{ text.splitlines(true) }} {{ e.splitlines() }} {% for line in text.splitlines() %}<{{ line }}>{% endfor %}",
          "{{ path.removeprefix('docs/') }} {{ path.removesuffix('.md') }} {{ path.removeprefix('x') }} {{ path.partition('/') }} {{ path.rpartition('.') }} {{ path.partition('#') }} {{ path.rpartition('#') }}",
          "{{ path.rfind('d') }} {{ path.index('g') }} {{ path.rindex('d') }} {{ path.rfind('zz') }} {{ path.rfind('') }} {{ sp.isspace() }} {{ e.isspace() }} {{ s.islower() }} {{ 'abc'.islower() }} {{ 'ABC1'.isupper() }}"]:
    case(t, SV)

# `{% call %}`: the macro's body with each `caller()` the text between the tags, in loops,
# through filters, more than once, with the names around the call.
CV = {"ts": [{"name": "a", "desc": "first"}, {"name": "b"}], "who": "Ada"}
for t in ["{% macro card(title, n=1) %}[{{ title }}:{% for i in range(n) %} {{ caller() }}{% endfor %}]{% endmacro %}{% for t in ts %}{% call card(t.name | upper, n=2) %}<{{ t.desc | default('-') }}>{% endcall %}\n{% endfor %}",
          "{% macro box() %}({{ caller() | trim | upper }}|{{ caller() | length }}){% endmacro %}{% call box() %}\n  hi {{ who }}\n{% endcall %}",
          "{% macro inner() %}[{{ caller() }}]{% endmacro %}{% macro outer() %}<{% call inner() %}in{% endcall %}{{ caller() }}>{% endmacro %}{% call outer() %}O{% endcall %}"]:
    for o in ["", "tlk"]:
        case(t, CV, o)

# Expressions, filters, tests and methods on plain data: rendered once each.
P = {"n": 7, "m": -3, "f": 2.5, "s": "  Hello wORLD  ", "w": "a-b c", "xs": [3, 1, 2], "e": [],
     "words": ["pear", "Apple", "fig", "apple"], "d": {"b": 1, "a": 2, "c": None},
     "people": [{"name": "Ann", "age": 31, "tags": ["x"]}, {"name": "bob", "age": 25}, {"name": "Cy", "age": 31}],
     "text": "The quick brown fox jumps over the lazy dog. A well-known sentence.\nSecond line here.",
     "big": 100000000000000000000, "z": 0, "t": True, "nul": None}
plain = [
    "{{ (1, 'a') }} {{ (n,) }} {{ () }} {{ (n, (f, [t])) | length }} {% if 'b' in ('a', 'b') %}in{% endif %} {{ (1, 2) == (1, 2) }} {{ (3, 1)[1] }} {% for a in (w, s) %}[{{ a }}]{% endfor %} {{ ('x',) ~ '' }} {{ (n, m) | tojson }}",
    "{{ w.split('-', 1) }} {{ 'a,b,c,d'.split(',', 2) }} {{ 'a,b,c'.split(',', 0) }} {{ 'a,b'.split(',', -1) }} {{ s.split(none, 1) }} {{ '  x  y  z  '.split(none, 1) }} {{ 'a b'.split(none, 5) }}",
    "{{ 'a,b,c,d'.rsplit(',', 2) }} {{ 'a,b,c'.rsplit(',') }} {{ '  x  y  z  '.rsplit(none, 1) }} {{ '  x  y  '.rsplit() }} {{ text.rsplit('.', 1)[0][-8:] }} {{ ''.split(',', 1) }} {{ ''.rsplit(none, 1) }}",
    "{{ nul | map('upper') | list }} {{ z | select | list }} {{ '' | reject('odd') | list }} {{ nul | selectattr('a', 'equalto', 1) | list | length > 0 }} {{ nul | rejectattr('a') | list }} {{ nul | map(attribute='a') | list }} {{ e | map('nosuchfilter') | list }}",
    "{{ n + 1 }} {{ n - 10 }} {{ n * 2 }} {{ n / 2 }} {{ n // 2 }} {{ n % 3 }} {{ n ** 2 }} {{ -n }} {{ +n }} {{ 2 ** 3 ** 2 }}",
    "{{ m // 2 }} {{ m % 2 }} {{ f * 2 }} {{ f // 1 }} {{ -f % 2 }} {{ 1 / 3 }} {{ 10 / 5 }} {{ 2 ** -1 }} {{ t + 1 }}",
    "{{ n ~ 'x' ~ f }} {{ 'a' + 'b' }} {{ 'ab' * 3 }} {{ xs + [4] }} {{ [0] * 3 }} {{ nul ~ '' }} {{ n - -1 }}",
    "{{ xs | length - 1 }} {{ -n | abs }} {{ (n + 1) * 2 }} {{ n > 5 and n < 10 }} {{ 1 + 2 == 3 }}",
    "{{ s[2:7] }}|{{ s[:4] }}|{{ s[-4:] }}|{{ s[::3] }}|{{ xs[::-1] }}|{{ xs[1:] }}|{{ xs[:-1] }}|{{ s[5:1:-1] }}|{{ xs[:] }}",
    "{{ d.values() | list }} {{ d.keys() | list }} {{ d.get('a') }} {{ d.get('q') }} {{ d.get('q', 'dflt') }} {{ d.items() | list }}",
    "{% for v in d.values() %}{{ v }},{% endfor %}{% for k in d.keys() %}{{ k }};{% endfor %}{% for p in d.items() %}{{ p }}{% endfor %}",
    "{{ s.lower() }}|{{ s.upper() }}|{{ s.strip() }}|{{ s.lstrip() }}|{{ s.rstrip() }}|{{ s.strip(' Hd') }}|{{ s.title() }}|{{ s.strip().capitalize() }}",
    "{{ w.replace('-', '+') }} {{ w.replace('', '.') }} {{ w.startswith('a') }} {{ w.endswith('c') }} {{ w.split('-') }} {{ ', '.join(words) }} {{ w.count('a') }} {{ w.find('c') }}",
    "{{ xs | list }} {{ 'ab' | list }} {{ d | list }} {{ '42' | int + 1 }} {{ '3.9' | int }} {{ 'x' | int(5) }} {{ '0x1A' | int(0, 16) }} {{ 2.7 | int }} {{ '1.5' | float }} {{ 'q' | float }} {{ 3 | float }}",
    "{{ n | string ~ '!' }} {{ m | abs }} {{ f | round }} {{ 3.14159 | round(2) }} {{ 2.5 | round(0, 'ceil') }} {{ 2.5 | round(0, 'floor') }} {{ 7 | round }} {{ 0.125 | round(2) }}",
    "{{ 'hello world-wide (x)' | title }} {{ 'hELLO' | capitalize }} {{ 'aaa' | replace('a', 'b', 2) }} {{ w | replace('-', '') }}",
    "{{ xs | first }} {{ xs | last }} {{ 'abc' | first }} {{ xs | min }} {{ xs | max }} {{ words | min }} {{ words | max }} {{ xs | sum }} {{ people | sum(attribute='age') }}",
    "{{ xs | sort }} {{ xs | sort(reverse=true) }} {{ words | sort }} {{ words | sort(case_sensitive=true) }} {{ people | sort(attribute='age') | map(attribute='name') | list }}",
    "{{ people | sort(attribute='age,name', reverse=true) | map(attribute='name') | join(',') }} {{ words | unique | list }} {{ words | unique(case_sensitive=true) | list }}",
    "{{ xs | reverse | list }} {{ 'abc' | reverse }} {{ people | map(attribute='name') | join(', ') }} {{ people | map(attribute='tags', default=[]) | list }} {{ words | map('upper') | list }}",
    "{{ xs | select('odd') | list }} {{ xs | reject('odd') | list }} {{ [0, 1, '', 'a'] | select | list }} {{ people | selectattr('age', 'eq', 31) | map(attribute='name') | list }} {{ people | rejectattr('tags') | map(attribute='name') | list }}",
    "{{ xs | select('greaterthan', 1) | list }} {{ xs | select('divisibleby', 3) | list }} {{ people | selectattr('tags', 'defined') | list | length }}",
    "{{ d | dictsort }} {{ d | dictsort(reverse=true) }} {% for k, v in d | dictsort %}{{ k }}={{ v }};{% endfor %}{{ d | items | list }}",
    "[{{ text | indent }}]\n[{{ text | indent(2, true) }}]\n[{{ 'a\n\nb' | indent(first=true, blank=true) }}]",
    "{{ text | truncate(20) }}|{{ text | truncate(20, true) }}|{{ text | truncate(20, end='…') }}|{{ 'short' | truncate(9) }}|{{ text | wordcount }}",
    "{{ text | wordwrap(20) }}\n--\n{{ text | wordwrap(12, wrapstring='|') }}\n--\n{{ 'abcdefghijklmnop qr' | wordwrap(5) }}\n--\n{{ 'abcdefghijkl' | wordwrap(5, false) }}",
    "{{ 'self-evident x-ray co-op 2-3 under_score-word a--b well-known-fact' | wordwrap(6) }}|{{ 'one  two   three' | wordwrap(5) }}|{{ 'x-y-z-w' | wordwrap(3, break_on_hyphens=false) }}",
    "{% for row in xs | batch(2) %}{{ row }}{% endfor %} {% for row in xs | batch(2, 'x') %}{{ row | join }}{% endfor %} {{ 'ab' | center(6) }}|",
    "{{ n is number }} {{ s is string }} {{ d is mapping }} {{ xs is sequence }} {{ n is iterable }} {{ n is odd }} {{ n is even }} {{ 9 is divisibleby 3 }} {{ 9 is divisibleby(4) }}",
    "{{ n is eq 7 }} {{ n is ne 7 }} {{ n is lt 8 }} {{ n is le 7 }} {{ n is gt 8 }} {{ n is ge(7) }} {{ 2 is in xs }} {{ 5 is in xs }} {{ t is true }} {{ t is boolean }} {{ n is integer }} {{ f is float }} {{ 'ab' is lower }} {{ 'AB' is upper }} {{ n is not odd }}",
    "{{ q is number }} {{ q is string }} {{ q is sequence }} {{ q is iterable }} {{ q is eq 1 }} {{ q is ne 1 }}",
    "{% set ns = namespace(found=false, count=0) %}{% for x in xs %}{% if x > 1 %}{% set ns.found = true %}{% set ns.count = ns.count + 1 %}{% endif %}{% endfor %}{{ ns.found }} {{ ns.count }}",
    "{% for x in xs %}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.previtem }}{{ loop.nextitem }}{{ loop.cycle('a', 'b') }};{% endfor %}",
    "{% for x in xs if x > 1 %}{{ loop.previtem is defined }}-{{ loop.nextitem }}-{{ loop.cycle('odd', 'even') }};{% endfor %}",
    "{% for k, v in d.items() %}{{ loop.previtem }}|{% endfor %}",
    "{% for p in d.items() %}{{ p | length }}{{ p[0] }}{{ p | first }}{{ p }};{% endfor %}{% for a, b in [[1, 'x'], xs[:2]] %}{{ a }}{{ b }};{% endfor %}{{ d | dictsort | first | length }}",
    "{{ 'yes' if n > 5 else 'no' }} {{ 'a' if z else 'b' }} {{ (n if t else m) + 1 }} {% for x in xs if x > 1 %}{{ x }}{% endfor %} {{ 'x' if z }}|",
    "{% for i in range(3) %}{{ i }}{% endfor %} {{ range(2, 10, 3) | list }} {{ range(5, 0, -2) | list }} {{ range(0) | list }}",
    "{{ big + 1 if false else big }} {{ big > n }} {{ xs.0 }} {{ people.0.name }} {{ (xs | sort)[0] }} {{ words[1:3] | join('/') }}",
    "{{ 'a\r\nb' }}|{{ s | trim | lower | title }}|{{ s | length }}|{{ n | string | length }}",
    "{{ xs | join(', ', attribute='') if false else people | join(', ', attribute='name') }}",
    "{{ '<b class=x>&' | e }} {{ \"it's\" | escape }} {{ '<i>' | safe }} {{ 3 | e }}",
    "{{ 7 // -2 }} {{ -7 // 2 }} {{ 7 % -3 }} {{ -7.5 // 2 }} {{ 5.0 % -3 }} {{ 2 ** 0.5 }} {{ 10 ** 20 }} {{ 1e300 * 1e10 }}",
]
for t in plain:
    case(t, P)
# Dict literals, and `{% filter %}` blocks: rendered once each, and with all three options.
DV = {"name": "Ada", "n": 3, "xs": ["b", "a"], "d": {"z": 1, "y": 2}, "flag": False, "body": "one two  three"}
dicts = [
    "{{ {'a': 1, \"b\": name} }} {{ {} }} {{ {'k': [1, {'in': none}], 'f': 2.5, 't': true,} }}",
    "{{ {'a': 1, 'b': 2, 'a': 3} }} {{ {'b': 1, 'a': 2} | tojson }} {{ {'q': \"it's\"} }} {{ {'\"': 'x'} }}",
    "{% for k, v in {'z': 1, 'y': [n]}.items() %}{{ k }}={{ v }};{% endfor %}{% for k in {'p': 1, 'o': 2} %}{{ k }}{% endfor %}",
    "{{ {'a': 1, 'b': 2}.keys() | list }} {{ {'a': 1, 'b': n}.values() | list }} {{ {'a': 1}.get('a') }} {{ {'a': 1}.get('x', 'dflt') }} {{ {'a': 1}.get('x') }}",
    "{{ 'a' in {'a': 1} }} {{ 'x' not in {'a': 1} }} {{ {'a': 1, 'b': 2} | length }} {{ {} | length }} {{ {'b': 1, 'a': 0} | dictsort }} {{ {'b': 1, 'a': 0} | dictsort(by='value', reverse=true) }}",
    "{{ {'a': 1}['a'] }} {{ {'a': {'b': 'deep'}}.a.b }} {{ {'a': 1} | list }} {{ {'a': 1} | first }} {{ {'x': 1} | items | list }} {{ {'a': 1} ~ '!' }} {{ {'a': 1} == {'a': 1} }}",
    "{{ {} or 'empty' }} {{ {'a': 0} and 'full' }} {{ {} is mapping }} {{ {'a': 1} is defined }} {{ {'a': 1} | string }} {{ [{'a': 1}, {}] }}",
    "{{ {name: n, name ~ '2': n * 2, 'x' if flag else 'y': xs | join} }} {{ {'a' 'b': 1} }} {{ {('k'): 1} }}",
    "{% set cfg = {'title': name | upper, 'tags': xs | sort, 'meta': d} %}{{ cfg.title }} {{ cfg['tags'] }} {{ cfg.meta.z }} {{ cfg }}",
    "{% set ns = namespace(m={}) %}{% for x in xs %}{% set ns.m = {'last': x, 'before': ns.m} %}{% endfor %}{{ ns.m }}",
    "{% for row in [{'k': 'a', 'v': 1}, {'k': 'b', 'v': 2}] %}{{ row.k }}{{ row.v }} {% endfor %}{{ [{'a': 1}, {'a': 2}] | map(attribute='a') | list }}",
    "{{ {'a': 1} | tojson }} {{ {'list': [1, 2], 'd': {}} | tojson }} {{ {'b': 'x', 'a': {'d': 1, 'c': 2}} | tojson }}",
    "{{ {'b': [1, {'y': 'é<'}, []], 'a': {}} | tojson(indent=2) }}|{{ [[], [1]] | tojson(4) }}|{{ 'x' | tojson(indent=2) }}|{{ {'k': 1} | tojson(indent=none) }}",
    "{{ {'a': [1, 2]} | tojson(indent=0) }}|{{ [1] | tojson(indent=-3) }}|{{ [1, [2]] | tojson(indent='\t<') }}|{{ [true] | tojson(indent=true) }}|{{ [[1]] | map('tojson', 1) | join }}",
]
filter_blocks = [
    "{% filter upper %}hello {{ name }}{% endfilter %}|",
    "{% filter upper | replace('L', '_') %}hello\nworld{% endfilter %}|",
    "{% filter indent(2, true) %}\na\n\nb\n{% endfilter %}|",
    "{% filter replace('a', 'o') %}{% for x in xs %}{{ x }}a{% endfor %}{% endfilter %}|",
    "{% filter upper %}{% filter lower %}AbC{% endfilter %}x{% endfilter %}|",
    "{% for x in xs %}{% filter upper %}{{ loop.index }}{{ x }}-{% endfilter %}{% endfor %}|",
    "{% filter center(11) %}{{ name }}{% endfilter %}|{% filter trim %}  pad  {% endfilter %}|{% filter e %}<b>&{% endfilter %}",
    "{% filter truncate(9) %}{{ body }} {{ body }}{% endfilter %}|{% filter wordwrap(7) %}{{ body }} {{ body }}{% endfilter %}|",
    "{% filter default('empty', true) %}{% endfilter %}|{% filter default('unused') %}kept{% endfilter %}|{% filter d('x', boolean=true) %}{% if flag %}on{% endif %}{% endfilter %}",
    "{% filter title %}the {{ 'quick' }} fox{% endfilter %}|{% filter capitalize %}aBC{% endfilter %}|{% filter reverse %}abc{% endfilter %}|{% filter first %}xyz{% endfilter %}",
    "{% filter replace('a', y) %}{% set y = 'b' %}a{{ y }}{% endfilter %}|{{ y | default('gone') }}",
    "{% set y = 'q' %}{% filter replace('a', y) %}{% set y = 'b' %}a{{ y }}{% endfilter %}{{ y }}",
    "{% filter replace(old='o', new='0', count=1) %}foo boo{% endfilter %}|{% filter join('.') %}abc{% endfilter %}|{% filter tojson %}{{ name }}{% endfilter %}",
    "x\n  {% filter upper %}\n  in\n  {% endfilter %}\ny\n",
    "a {%- filter upper -%} b {%- endfilter -%} c\n",
    "{% if n > 1 %}{% filter upper %}{% set t = {'k': name} %}{{ t.k }}{% endfilter %}{% endif %}",
    "{% filter upper %}{% include 'components/part.md.j2' %}{% endfilter %}",
    # Block sets: the body's text (through filters, if any) bound to the name.
    "{% set x %}Hello {{ name }}!{% endset %}[{{ x }}]{{ x | length }}",
    "{% set x | upper | replace('A', '4') %} a{{ name }} {% endset %}[{{ x }}]",
    "{% for i in xs %}{% set line %}{{ loop.index }}:{{ i }}{% endset %}{{ line }};{% endfor %}{{ line | default('out') }}",
    "{% set t = 'a' %}{% if flag %}{% set t %}b{{ n }}{% endset %}{% endif %}{{ t }}|{% if not flag %}{% set t %}c{{ n }}{% endset %}{% endif %}{{ t }}",
    "{% set y = 1 %}{% set x %}{% set y = 2 %}{{ y }}{% endset %}{{ x }}{{ y }}",
    "{% set x -%}\n  a {{ name }}\n{%- endset %}[{{ x }}]\n{% set z %}\n  b\n{% endset %}({{ z }})",
    "{% set n2 | length %}abc{% endset %}{{ n2 + 1 }}|{% set w | wordcount %}{{ body }}{% endset %}{{ w * 2 }}",
    "{% set part %}{% include 'components/part.md.j2' %}{% endset %}<{{ part | trim }}>",
]
for t in dicts:
    case(t, DV)
for t in filter_blocks:
    for o in ["", "tlk"]:
        case(t, DV, o, {"components/part.md.j2": "part {{ name }}\n"} if "include" in t else None)

# Line ends: a lone carriage return is one, as is CRLF; every one is written `\n`.
for t in ["a\rb\r\nc\n", "{% if t %}\rx\r{% endif %}\r", "{{ 'p\rq' }}\r"]:
    for o in ["", "tlk"]:
        case(t, P, o)

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

# Template inheritance: a child's blocks in its parent's places, `super()`, three levels,
# nested blocks, a parent's text around them, `set`s the blocks see, whitespace control.
inh_files = {
    "base.md.j2": "# {{ title }}\n{% block intro %}Default intro.\n{% endblock %}\n{% set mood = 'calm' %}{% block body %}{% endblock body %}\n-- end\n",
    "layout/chat.md.j2": "{% extends 'base.md.j2' %}\n{% block intro %}Chat: {{ super() }}{% endblock %}\n{% block body -%}\n  {% block turns %}none{% endblock %} ({{ mood }})\n{%- endblock %}\n",
    "indented.md.j2": "jobs:\n{%- filter indent(width=4) -%}\n{% block steps %}\n{% endblock steps %}\n{%- endfilter -%}\nafter\n",
    "looped.md.j2": "{% for u in users %}[{% block row scoped %}{{ u }}{% endblock %}]{% endfor %}",
}
inh = [
    "{% extends 'base.md.j2' %}{% block body %}Body for {{ who }}.{% endblock %}",
    "{% extends 'base.md.j2' %}\n{% block intro %}Mine, then: {{ super() }}{% endblock %}\n",
    "\n{% extends 'base.md.j2' %}\n{% set who = 'set before' %}\n{% block body %}{{ who }} / {{ mood }}{% endblock %}\n",
    "{% extends 'layout/chat.md.j2' %}{% block turns %}{% for t in turns %}{{ t }};{% endfor %}{% endblock %}",
    "{% extends 'layout/chat.md.j2' %}{% block intro %}[{{ super() }}]{% endblock %}",
    "{% extends 'indented.md.j2' %}\n{% block steps %}\n- name: a\n  run: {{ who }}\n- name: b\n{% endblock steps %}\n",
    "{% extends 'looped.md.j2' %}{% block row %}<{{ u | upper }}>{% endblock %}",
    "{% block only %}standalone {{ who }}{% endblock %} and {% block two %}{% block inner %}in{% endblock %}!{% endblock %}",
    "{% include 'layout/chat.md.j2' %}|",
]
IV = {"title": "T", "who": "Ada", "turns": ["hi", "yo"], "users": ["a", "b"]}
for t in inh:
    for o in ["", "tlk"]:
        case(t, IV, o, inh_files)

# Macros: parameters by position and by name, defaults, a macro calling another, macros
# defined inside macros, the values they see, whitespace control in their bodies.
macros = [
    "{% macro greet(name, punct='!') %}Hello {{ name }}{{ punct }}{% endmacro %}{{ greet(who) }} {{ greet('you', punct='?') }} {{ greet(punct='.', name='x') }}",
    "{% macro row(k, v) -%}\n  {{ k }}: {{ v }}\n{%- endmacro %}\n{% for k, v in d.items() %}\n{{ row(k, v) }}\n{% endfor %}\n",
    "{% macro outer() %}<{% macro inner(x) %}{{ x * 2 }}{% endmacro %}{{ inner(2) }},{{ inner(n) }}>{% endmacro %}{{ outer() }}{{ outer() }}",
    "{% macro a() %}A{{ who }}{% endmacro %}{% macro b() %}[{{ a() }}{{ a() }}]{% endmacro %}{{ b() }}\n{{ b() }}\n",
    "{% macro setter() %}{% set who = 'inner' %}{{ who }}{% endmacro %}{{ setter() }}/{{ who }}",
    "{% macro list(items, sep=', ') %}{{ items | join(sep) }}{% endmacro %}\n  {{ list(turns) }}\n  {{ list(turns, ' & ') }}\n",
]
MV = {"who": "Ada", "n": 5, "d": {"b": 1, "a": 2}, "turns": ["hi", "yo"]}
# A macro's call inside an expression: its text, as a string.
W = "{% macro w(x) %}<{{ x }}>{% endmacro %}"
macros += [W + s for s in [
    "{{ w(who) | upper }}|{{ w(n) ~ '!' }}|{{ w(w(who)) }}|{% set t = w('a') %}[{{ t }}]{{ t | length }}",
    "{% if w(who) == '<Ada>' %}eq{% endif %}{% if w('') is string %} str{% endif %}{% for c in w('ab') %}{{ c }},{% endfor %}",
    "{% for x in turns %}{{ w(x) + ';' }}{{ w(loop.index) }}{% endfor %}{% if n > 9 %}a{% elif w(who).startswith('<') %}b{% endif %}",
    "{{ w(who).strip('<>') }} {{ (w(n) | length) + 1 }} {{ [w(1), w(2)] }} {{ {'k': w(who)} }} {{ w(who) if n else 'no' }}",
    "{{ 'none' if nope is not defined else w(nope.a) }}|{{ n > 9 and w(nope.x) }}|{{ n or w(nope.x) }}|{% if turns and w(turns[0]) == '<hi>' %}ok{% endif %}|{{ w(who) if n > 1 }}|{{ (w(1) if nope is defined else w(2)) ~ w(3) }}",
    "{{ w is defined }} {{ w is undefined }} {{ w is not defined }} {{ w is none }} {% if w is defined %}{{ w('d') }}{% endif %}",
    "{% macro b(y) %}{{ w(y) | upper }}-{% endmacro %}{{ b('q') }}{{ b('r') ~ '' }}{{ b(w(n)) }}",
    "{% set v = 'none' %}{% if n > 1 %}{% set v = w('big') %}{% else %}{% set v = w('small') %}{% endif %}{{ v }}",
    "{% set ns = namespace(s='') %}{% for x in turns %}{% set ns.s = ns.s ~ w(x) %}{% endfor %}{{ ns.s }}",
    "{% macro sp(x) %}\n  {{ x }}\n{% endmacro %}[{{ sp(who) | trim }}]({{ sp(n) | length }})\n{{- sp('z') -}}\n.",
]]
for t in macros:
    for o in ["", "tlk"]:
        case(t, MV, o)

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
