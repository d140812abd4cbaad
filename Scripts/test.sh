#!/usr/bin/env bash
# The test command: lint, build with warnings as errors, run every test, build the documentation, run the
# integration package (matrix, demo, dlopen), then the thread sanitizer pass.
# Usage: Scripts/test.sh            (set SKIP_TSAN=1 to skip the sanitizer run)
set -euo pipefail
cd "$(dirname "$0")/.."
# Each test run has a time limit far above its usual time; past it, Scripts/watchdog.sh prints where every
# thread of the test process is and fails the run, so a hang is reported instead of stalling CI.
watch=Scripts/watchdog.sh

echo "== lint (swift format)"
swift format lint --strict --recursive --configuration .swift-format Package.swift Packages Tests Integration/Package.swift Integration/Sources Integration/Tests Integration/Benchmarks/Package.swift Integration/Benchmarks/Sources

echo "== README examples are compiled by tests"
python3 Scripts/check-readme-examples.py

echo "== build and test (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors
$watch 900 swift test --skip-build --parallel

echo "== documentation (DocC, one catalog per product, warnings are errors)"
Scripts/docs.sh

echo "== integration suite (its own package: the demo, a dlopen'd image, plugins together)"
Scripts/refresh-dependent.sh Integration
swift build --package-path Integration -Xswiftc -warnings-as-errors
swift build --package-path Integration --build-tests -Xswiftc -warnings-as-errors
$watch 600 swift test --package-path Integration --skip-build
XDG_CONFIG_HOME="$(mktemp -d)" $watch 300 swift run --package-path Integration --skip-build Demo >/dev/null  # a scratch settings home
$watch 300 swift run --package-path Integration --skip-build LazyOnly  # an app depending on one plugin alone

if [ "${SKIP_TSAN:-0}" != "1" ]; then
  echo "== thread sanitizer"
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
  # One test at a time: each concurrency test still runs its own real threads, but tests running side by
  # side under the sanitizer wait on each other's locks inside the Swift runtime (in this mode it takes a
  # lock for every type-metadata request): side by side the pass took 200 to 780 s on a 2-core machine,
  # and most likely kept a CI run past its 90 minutes; one at a time it takes about 2 minutes.
  $watch 1500 swift test --skip-build --no-parallel --sanitize=thread --scratch-path .build-tsan
fi
