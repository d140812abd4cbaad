#!/usr/bin/env python3
"""Adds repeated catalog-pass runs (fresh processes) to the main run's JSON and prints, per fixture, the
main run's pass, the best and worst of the warm runs, and the cold run.

Usage: merge-pass-results.py LATEST.json REPEAT.json ...
"""
import json
import pathlib
import sys

latest_path = pathlib.Path(sys.argv[1])
latest = json.loads(latest_path.read_text())
repeats = [json.loads(pathlib.Path(path).read_text())["passes"] for path in sys.argv[2:]]
latest["passRepeats"] = repeats

print("\nCATALOG PASS, REPEATED (µs; whole pass; each run a fresh process opening every fixture)")
print(f"  {'classes':>8} {'main run':>9} {'warm best':>10} {'warm worst':>11} {'cold':>9}")
for index, main in enumerate(latest["passes"]):
    runs = [main] + [repeat[index] for repeat in repeats]
    warm = [run["passNanoseconds"] / 1000 for run in runs if run["warm"]]
    cold = [run["passNanoseconds"] / 1000 for run in runs if not run["warm"]]
    cold_text = f"{min(cold):9.1f}" if cold else f"{'-':>9}"
    print(f"  {main['classes']:>8} {warm[0]:9.1f} {min(warm):10.1f} {max(warm):11.1f} {cold_text}")
latest_path.write_text(json.dumps(latest, indent=2, sort_keys=True))
print(f"\nJSON: {latest_path}")
