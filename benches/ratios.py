#!/usr/bin/env python3
"""Prints the ratios that benches/README.md reports, from criterion's last run.

Reads `target/criterion/<group>/<bench>/new/estimates.json` (the median of the last run of
each bench) and prints, for the render bench, each variant's time and its ratio to
`limit`; for the scaling bench, each size's time and the ratio of 10 x N to N (about 10
when the work is linear, about 100 when it is quadratic).

    cargo bench -p promptic-benches -- --warm-up-time 1 --measurement-time 5
    python3 benches/ratios.py
    python3 benches/ratios.py --target-dir /elsewhere/target

Python 3, standard library only.
"""

import argparse
import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def median_ns(bench_dir):
    estimates = bench_dir / "new" / "estimates.json"
    if not estimates.is_file():
        return None
    return json.loads(estimates.read_text())["median"]["point_estimate"]


def show(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.0f} ns"


def render_group(group_dir):
    times = {d.name: median_ns(d) for d in sorted(group_dir.iterdir()) if d.is_dir()}
    times = {k: v for k, v in times.items() if v is not None}
    limit = times.get("limit")
    print(group_dir.name)
    for name in ["limit", "derive", "hand_written_slots", "hand_written", "askama", "format", "runtime", "minijinja"]:
        if name in times:
            ratio = f"{times[name] / limit:5.2f}x limit" if limit else ""
            print(f"  {name:<18} {show(times[name]):>10}  {ratio}")


def scaling_group(group_dir):
    print(group_dir.name)
    for shape in sorted(d for d in group_dir.iterdir() if d.is_dir() and d.name != "report"):
        sizes = sorted(
            (int(d.name), median_ns(d)) for d in shape.iterdir() if d.name.isdigit()
        )
        sizes = [(n, t) for n, t in sizes if t is not None]
        line = "  ".join(f"N={n}: {show(t)}" for n, t in sizes)
        growth = ""
        if len(sizes) == 2 and sizes[1][0] == 10 * sizes[0][0]:
            growth = f"  10x N costs {sizes[1][1] / sizes[0][1]:.0f}x"
        print(f"  {shape.name:<15} {line}{growth}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target-dir", type=Path, default=REPO / "target")
    args = parser.parse_args()
    root = args.target_dir / "criterion"
    if not root.is_dir():
        raise SystemExit(f"no criterion results in {root}: run `cargo bench -p promptic-benches` first")
    for group_dir in sorted(d for d in root.iterdir() if d.is_dir() and d.name != "report"):
        if group_dir.name.startswith("weekly_review"):
            render_group(group_dir)
        elif group_dir.name in ("check", "infer_context"):
            scaling_group(group_dir)


if __name__ == "__main__":
    main()
