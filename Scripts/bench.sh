#!/usr/bin/env bash
# The benchmark command: release build, every figure in one run, a table on the terminal and a JSON file.
# Usage: Scripts/bench.sh            full run, with the 5,000 / 10,000 / 20,000 / 40,000-class pass fixtures
#        Scripts/bench.sh --smoke    tiny iteration counts and a 200-class fixture (what CI runs)
#        Scripts/bench.sh --cold     full run, the pass timed right after dlopen (page faults included)
# The fixtures take minutes to build the first time; they are cached in .build-fixture/ and rebuilt only
# when the generator changes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

options=()
sizes=(5000 10000 20000 40000)
case "${1:-}" in
  --smoke) options=(--smoke); sizes=(200) ;;
  --cold) options=(--cold) ;;
esac

fixtures=()
# A fixture is rebuilt when the generator or the set of product source files changes (SwiftPM does not
# notice files added to a path dependency of an existing build).
stamp=$( (cat Scripts/generate-catalog-fixture.py; find Packages -name '*.swift' | sort) | sha1sum | cut -c1-12)
for size in "${sizes[@]}"; do
  dir=".build-fixture/$size"
  library="$dir/.build/debug/libCatalogFixture$size.so"
  if [ ! -f "$library" ] || [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "== building the $size-class catalog fixture (cached in $dir)"
    rm -rf "$dir/Sources" "$dir/.build"
    python3 Scripts/generate-catalog-fixture.py "$size" "$dir" "$root"
    start=$(date +%s)
    swift build --package-path "$dir"
    echo "   built in $(( $(date +%s) - start )) s"
    echo "$stamp" > "$dir/stamp"
  fi
  fixtures+=("$root/$library")
done

echo "== building the benchmarks (release)"
# Same SwiftPM limitation as for the fixtures: start afresh when the product's file list changed.
if [ "$(cat Integration/Benchmarks/.build/stamp 2>/dev/null)" != "$stamp" ]; then
  rm -rf Integration/Benchmarks/.build
fi
swift build -c release --package-path Integration/Benchmarks
echo "$stamp" > Integration/Benchmarks/.build/stamp
results=Integration/Benchmarks/results
mkdir -p "$results"
runner=Integration/Benchmarks/.build/release/Benchmarks

# Reads and set-up in one run; then each fixture's pass in a fresh process of its own, three times
# (the best counts: the pass runs once per image, so repeating means new processes).
"$runner" "${options[@]}" --json "$results/latest.json"
for fixture in "${fixtures[@]}"; do
  for round in 1 2 3; do
    "$runner" "${options[@]}" --pass-only --json "$results/pass-$(basename "$fixture" .so)-$round.json" "$fixture" >/dev/null
  done
done
python3 Scripts/merge-pass-results.py "$results" "${fixtures[@]}"
