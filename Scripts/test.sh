#!/usr/bin/env bash
# The test command: lint, build with warnings as errors, run every test, build the documentation, run the
# integration package (matrix, demo, dlopen), then the thread sanitizer pass.
# Usage: Scripts/test.sh            (set SKIP_TSAN=1 to skip the sanitizer run)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== lint (swift format)"
swift format lint --strict --recursive --configuration .swift-format Package.swift Packages Tests Integration/Package.swift Integration/Sources Integration/Tests Integration/Benchmarks/Package.swift Integration/Benchmarks/Sources

echo "== README examples are compiled by tests"
python3 Scripts/check-readme-examples.py

echo "== build and test (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build --parallel

echo "== documentation (DocC, one catalog per product, warnings are errors)"
Scripts/docs.sh

echo "== integration suite (its own package: the demo, a dlopen'd image, plugins together)"
Scripts/refresh-dependent.sh Integration
swift build --package-path Integration -Xswiftc -warnings-as-errors
swift build --package-path Integration --build-tests -Xswiftc -warnings-as-errors
swift test --package-path Integration --skip-build
XDG_CONFIG_HOME="$(mktemp -d)" swift run --package-path Integration --skip-build Demo >/dev/null  # a scratch settings home
swift run --package-path Integration --skip-build LazyOnly  # an app depending on one plugin alone

if [ "${SKIP_TSAN:-0}" != "1" ]; then
  echo "== thread sanitizer"
  swift test --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors
fi
