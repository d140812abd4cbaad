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
Scripts/refresh-dependent.sh $package
swift build -c release --package-path $package
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
    # The kernel's C modules (read sections, owner lifetime, …): their module maps.
    c_maps=()
    for map in "$root/$package"/.build/release/*.build/module.modulemap; do c_maps+=(-Xcc -fmodule-map-file="$map"); done
    swiftc -emit-library -module-name "CatalogFixture$size" "${fixture_flags[@]}" -I "$modules" -j2 \
      "${c_maps[@]}" -o "$library" "$dir"/Sources/*.swift
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

# Per-instance figures count allocations and live bytes through a malloc-counting preload (glibc).
preload=.build-bench/libmalloccounter.so
mkdir -p .build-bench
gcc -O2 -shared -fPIC Scripts/malloc-counter.c -o "$preload"

echo "== running (every figure in one process)"
LD_PRELOAD=$root/$preload "$runner" "${smoke_flag[@]}" --json "$results/latest.json" "${fixtures[@]}"

# Instructions per per-instance probe: callgrind counts them repeatably on a shared, noisy machine.
# valgrind 3.19 cannot read the toolchain's DWARF 5, so it runs a copy without debug information; only
# the probe loop is collected.
probes=(plain1 inject1 lazy1 swiftLazy1 dependency1 swinject1 plain3 inject3 lazy3 swiftLazy3 dependency3
  swinject3 plain8 inject8 lazy8 swiftLazy8 dependency8 swinject8)
count=200
if [ $smoke = 1 ]; then probes=(plain1 inject1); count=2; fi
if command -v valgrind >/dev/null; then
  echo "== instructions per operation (callgrind, $count operations per probe)"
  objcopy --strip-debug "$runner" .build-bench/Benchmarks-nodebug
  printf '  %-14s %12s %9s\n' probe instructions "vs plain"
  instructions_json="{"
  for probe in "${probes[@]}"; do
    out=.build-bench/callgrind.$probe
    valgrind --tool=callgrind "--toggle-collect=*instanceProbeLoop*" --callgrind-out-file="$out" \
      .build-bench/Benchmarks-nodebug --probe "$probe" "$count" >/dev/null 2>&1
    total=$(awk '/^summary:/ {print $2}' "$out")
    per=$(( total / count ))
    size=${probe//[!0-9]/}
    if [ "$probe" = "plain$size" ]; then plain=$per; fi
    printf '  %-14s %12s %8sx\n' "$probe" "$per" "$(python3 -c "print(f'{$per / $plain:.2f}')")"
    instructions_json+="\"$probe\": $per, "
  done
  echo "${instructions_json%, }}" > "$results/instance-instructions.json"
  echo "   $results/instance-instructions.json"
fi

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

# DeluxeInjection's headline in its exact shape: a fresh process with the largest fixture loaded runs
# one imperative block injecting its marked properties, the kernel's first pass included (3 processes).
largest=${fixtures[${#fixtures[@]}-1]}
headline_runs=3
if [ $smoke = 1 ]; then headline_runs=1; fi
# Two shapes of the block: one rule per property (150 rules), and DeluxeInjection's own — one rule whose
# builder decides for every property.
echo "== headline: one imperative block injecting the fixture's $marked properties, pass included"
for run in $(seq 1 $headline_runs); do
  "$runner" --headline "$largest" --shape rule-per-property --json "$results/headline-$run.json"
done
for run in $(seq 1 $headline_runs); do
  "$runner" --headline "$largest" --shape one-rule --json "$results/headline-one-rule-$run.json"
done
