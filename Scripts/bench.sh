#!/usr/bin/env bash
# The benchmark command: a release build, every figure measured in one run, a table on the terminal and
# a JSON file (Integration/Benchmarks/results/latest.json: figures, machine, build configuration).
# Usage: Scripts/bench.sh            full run: reads, set-up, and the catalog pass over fixtures of
#                                    5,000 / 10,000 / 20,000 / 40,000 classes (then repeated: best of 3, cold)
#        Scripts/bench.sh --smoke    tiny iteration counts and a 200-class fixture (what CI runs)
# It fails only when something fails to build or crashes, never on a figure.
# The fixtures take minutes to build the first time; each is cached in .build-fixture/<classes>/ and
# rebuilt only when the generator, its parameters or the compiler change, or when the runner no longer
# exports a symbol the fixture needs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
package=Integration/Benchmarks
results=$package/results
runner=$package/.build/release/Benchmarks

smoke=0
sizes=(5000 10000 20000 40000)
marked=150
if [ "${1:-}" = "--smoke" ]; then smoke=1; sizes=(200); fi
smoke_flag=()
if [ $smoke = 1 ]; then smoke_flag=(--smoke); fi
swift_version=$(swift --version 2>/dev/null | head -1)
fixture_flags=(-Onone -swift-version 6 -parse-as-library)

echo "== building the benchmarks (release)"
# SwiftPM does not notice files added to a path dependency of an existing build: start afresh when the
# product's list of source files changed.
sources_stamp=$(find Packages -name '*.swift' | sort | sha1sum | cut -c1-12)
if [ "$(cat $package/.build/sources-stamp 2>/dev/null)" != "$sources_stamp" ]; then
  rm -rf $package/.build
fi
swift build -c release --package-path $package
echo "$sources_stamp" > $package/.build/sources-stamp
modules=$root/$package/.build/release/Modules

# A fixture is compiled against the runner's modules and links no kernel of its own (see the runner's
# Package.swift): its undefined InjectPlugin/InjectionKernel symbols must be exported by the runner.
exported=$(mktemp)
trap 'rm -f "$exported"' EXIT
nm -D --defined-only "$runner" | awk '{print $3}' | sort > "$exported"
fixture_is_current() {  # dir, library, stamp
  [ -f "$2" ] && [ "$(cat "$1/stamp" 2>/dev/null)" = "$3" ] || return 1
  [ -z "$(comm -23 "$1/needs" "$exported")" ]
}

fixtures=()
for size in "${sizes[@]}"; do
  dir=.build-fixture/$size
  library=$root/$dir/libCatalogFixture$size.so
  stamp=$( (cat Scripts/generate-catalog-fixture.py; echo "$size $marked ${fixture_flags[*]} $swift_version") \
    | sha1sum | cut -c1-12)
  if ! fixture_is_current "$dir" "$library" "$stamp"; then
    echo "== building the $size-class catalog fixture (cached in $dir)"
    rm -rf "$dir"
    python3 Scripts/generate-catalog-fixture.py "$size" "$dir" --marked "$marked"
    start=$(date +%s)
    swiftc -emit-library -module-name "CatalogFixture$size" "${fixture_flags[@]}" -I "$modules" -j2 \
      -o "$library" "$dir"/Sources/*.swift
    seconds=$(( $(date +%s) - start ))
    echo "   built in $seconds s"
    echo "$seconds" > "$dir/build-seconds"
    nm -u "$library" | awk '/InjectPlugin|InjectionKernel/ {print $2}' | sort > "$dir/needs"
    echo "$stamp" > "$dir/stamp"
  fi
  fixtures+=("$library")
done

mkdir -p "$results"
export BENCH_SWIFT_VERSION="$swift_version"
export BENCH_GIT_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
export BENCH_FIXTURE_BUILD="swiftc ${fixture_flags[*]}; $(for s in "${sizes[@]}"; do
  echo -n "$s classes built in $(cat .build-fixture/$s/build-seconds 2>/dev/null || echo '?') s; "; done)"

echo "== running (every figure in one process)"
"$runner" "${smoke_flag[@]}" --json "$results/latest.json" "${fixtures[@]}"

if [ $smoke = 0 ]; then
  # The pass runs once per image in a process: repeating it takes new processes. Two more warm runs
  # give the spread, a cold one the cost with first-touch page faults.
  echo "== repeating the catalog pass in fresh processes"
  "$runner" --pass-only --json "$results/pass-warm-2.json" "${fixtures[@]}" >/dev/null
  "$runner" --pass-only --json "$results/pass-warm-3.json" "${fixtures[@]}" >/dev/null
  "$runner" --pass-only --cold --json "$results/pass-cold-1.json" "${fixtures[@]}" >/dev/null
  python3 Scripts/merge-pass-results.py "$results/latest.json" \
    "$results/pass-warm-2.json" "$results/pass-warm-3.json" "$results/pass-cold-1.json"
fi
