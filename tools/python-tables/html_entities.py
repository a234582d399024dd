# Writes prompt-runtime/src/python/html_entities.rs: the HTML5 named character
# references as Python's `html.unescape` reads them (`html.entities.html5`, the WHATWG
# list, with the legacy names that need no `;`), sorted by name for a binary search.
#     python3 tools/python-tables/html_entities.py > prompt-runtime/src/python/html_entities.rs
import html.entities

def rust(s):
    return "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "\\u{%x}" % ord(c) for c in s)

print("//! The HTML5 named character references, as Python's `html.entities.html5` lists them:")
print("//! each name (with its `;`, and without it for the legacy names that may omit it) and")
print("//! its text. Written by `tools/python-tables/html_entities.py`; sorted by name.")
print()
print("pub(crate) const ENTITIES: &[(&str, &str)] = &[")
for name in sorted(html.entities.html5):
    print(f'    ("{rust(name)}", "{rust(html.entities.html5[name])}"),')
print("];")
