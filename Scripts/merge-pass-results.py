#!/usr/bin/env python3
"""Adds the best of each fixture's pass runs to results/latest.json and prints them as a table.

Usage: merge-pass-results.py RESULTS_DIR FIXTURE.so ...
"""
import json
import pathlib
import sys

results = pathlib.Path(sys.argv[1])
latest = json.loads((results / "latest.json").read_text())
rows = []
for fixture in sys.argv[2:]:
    name = pathlib.Path(fixture).stem
    runs = [json.loads(path.read_text()) for path in sorted(results.glob(f"pass-{name}-*.json"))]
    passes = [run["passes"][0] for run in runs if run.get("passes")]
    if not passes:
        sys.exit(f"no pass recorded for {fixture}")
    best = min(passes, key=lambda p: p["scanNanoseconds"])
    best["runs"] = len(passes)
    best["scanNanosecondsAll"] = [p["scanNanoseconds"] for p in passes]
    rows.append(best)
latest["passes"] = rows
(results / "latest.json").write_text(json.dumps(latest, indent=2, sort_keys=True))

print("\nPASS (best of 3 processes per fixture; scan = find images, marker types and marked fields)")
print(f"  {'classes':>8} {'fields':>8} {'marked':>6} {'scan µs':>10} {'ns/class':>9}   all runs (µs)")
for row in rows:
    marked = row["markedProperties"] + row.get("markedByOtherKernelCopies", 0)
    scan = row["scanNanoseconds"] / 1000
    others = ", ".join(f"{n / 1000:.0f}" for n in row["scanNanosecondsAll"])
    print(f"  {row['classes']:>8} {row['fields']:>8} {marked:>6} {scan:>10.1f} {row['scanNanoseconds'] / row['classes']:>9.1f}   {others}")
print(f"\nJSON: {results / 'latest.json'}")
