#!/usr/bin/env python3
"""Generates vectors.json: what CPython's string.Template.safe_substitute returns.

Run from anywhere with CPython 3.11 (the version promptic matches):

    python3 prompt-runtime/tests/python/gen_vectors.py

The output is deterministic (fixed seed, sorted keys), so a re-run on the same Python
gives the same file and a diff shows any change in Python's behaviour. The Rust test
tests/python_compat.rs checks prompt_runtime::safe_substitute against every case and
needs no Python.
"""

import json
import random
import string
import sys
from pathlib import Path

SEED = 20240611
RANDOM_CASES = 3000
OUT = Path(__file__).with_name("vectors.json")

KELVIN = "\u212a"  # matched [a-z] under re.IGNORECASE before Python 3.7 added (?a:...)

# Weighted toward the characters the `$` grammar cares about.
ALPHABET = (
    ["$"] * 10
    + ["{"] * 4
    + ["}"] * 4
    + ["_"] * 3
    + list("aAbBzZ") * 2
    + list("kK019")
    + ["é", " ", " ", "\n", "\t", ".", "-", ",", "!", "'", '"', "\\", "(", ")"]
    + [KELVIN, "ı", "ſ", "😀", "\u00a0", "\u0301", "Ω"]
)
NAMES = ["a", "b", "A", "B", "_", "ab", "aB", "Ab", "a1", "_a", "name", "Name", "NAME",
         "k", "K", "x_y", "é", KELVIN, "1a", "", "a b", "$a"]

HAND_PICKED = [
    ("$", {}),
    ("a$", {}),
    ("$$", {}),
    ("$$$", {}),
    ("$$$a", {"a": "A"}),
    ("$$a", {"a": "A"}),
    ("${}", {}),
    ("${ a }", {"a": "A"}),
    ("${a", {"a": "A"}),
    ("${a }", {"a": "A"}),
    ("${a}}", {"a": "A"}),
    ("${{a}}", {"a": "A"}),
    ("$1", {"1": "one"}),
    ("$1a", {"a": "A"}),
    ("$_", {"_": "U"}),
    ("$_1", {"_1": "U"}),
    ("$é", {"é": "E"}),
    ("$" + KELVIN, {KELVIN: "kelvin", "k": "k", "K": "K"}),
    ("${" + KELVIN + "}", {KELVIN: "kelvin", "k": "k", "K": "K"}),
    ("$k" + KELVIN, {"k": "k"}),
    ("${ı}$ı$ſ${ſ}", {"ı": "i", "ſ": "s", "i": "I", "s": "S"}),
    ("$a$b", {"a": "A", "b": "B"}),
    ("${a}${b}", {"a": "A", "b": "B"}),
    ("$a${b}$c", {"a": "A", "b": "B"}),
    ("$a.", {"a": "A"}),
    ("$a-b", {"a": "A", "a-b": "no"}),
    ("$a,b;c:d", {"a": "A"}),
    ("$a_b", {"a": "A"}),
    ("$a_b", {"a_b": "AB", "a": "A"}),
    ("($a)", {"a": "A"}),
    ("$a", {"a": "$b", "b": "B"}),
    ("$a", {"a": "${b}", "b": "B"}),
    ("$a$b", {"a": "$$", "b": "$"}),
    ("${a}", {"a": "$a"}),
    ("$name $Name $NAME", {"name": "n", "Name": "N"}),
    ("$name $Name $NAME", {"NAME": "upper"}),
    ("$" + "a" * 300, {"a" * 300: "long"}),
    ("${" + "x_" * 100 + "}", {"x_" * 100: "long braced"}),
    ("$" + "a" * 300, {"a" * 299: "not quite"}),
    ("$a $b ${c} $d", {"a": "A"}),
    ("$missing ${missing} $$missing", {}),
    ("cost: $5, $$5, $ 5, $", {}),
    ("line one $a\nline two ${a}\n$", {"a": "A"}),
    ("😀$a😀${a}😀", {"a": "😀"}),
    ("$\n", {}),
    ("${\n}", {}),
    ("$a\u0301", {"a": "A"}),
    ("", {}),
    ("no dollars at all", {"a": "A"}),
    ("$$$$$", {}),
    ("${$a}", {"a": "A"}),
    ("$${a}", {"a": "A"}),
    ("$$${a}", {"a": "A"}),
    ("$a{b}", {"a": "A"}),
    ("${a}b", {"a": "A", "ab": "no"}),
    ("$9lives", {}),
]


def random_text(rng, max_len):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, max_len)))


def random_vars(rng):
    mapping = {}
    for name in rng.sample(NAMES, rng.randint(0, 8)):
        mapping[name] = random_text(rng, 8)
    return mapping


def case(text, mapping):
    expected = string.Template(text).safe_substitute(mapping)
    return {"text": text, "vars": mapping, "expected": expected}


def main():
    if sys.version_info[:2] != (3, 11):
        print(f"warning: vectors are meant to come from CPython 3.11, this is {sys.version}",
              file=sys.stderr)
    rng = random.Random(SEED)
    cases = [case(text, mapping) for text, mapping in HAND_PICKED]
    for _ in range(RANDOM_CASES):
        cases.append(case(random_text(rng, 40), random_vars(rng)))
    lines = [json.dumps(c, ensure_ascii=False, sort_keys=True) for c in cases]
    OUT.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
