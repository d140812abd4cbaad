#!/usr/bin/env bash
# Builds the DocC documentation of every product with the toolchain's own `docc` (no package plugin),
# warnings as errors: symbol graphs are extracted from the debug build's modules, then each product's
# catalog (Packages/<Product>/Sources/<Product>/<Product>.docc) is converted into
# .build/docs/<Product>.doccarchive. Usage: Scripts/docs.sh   (run after `swift build`; Scripts/test.sh does)
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests -Xswiftc -warnings-as-errors  # a no-op after the test command's build (same flags)
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
# The C modules the Swift modules import: their module maps and headers.
c_modules=()
for map in "$bin"/*.build/module.modulemap; do c_modules+=(-Xcc -fmodule-map-file="$map"); done
for include in Packages/*/Sources/*/include; do c_modules+=(-I "$include"); done
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
work=".build/docs"
rm -rf "$work"
mkdir -p "$work"

for package in Packages/*/; do
  product="$(basename "$package")"
  [ -d "$package/Sources/$product/$product.docc" ] || {
    echo "docs: $product has no catalog ($package""Sources/$product/$product.docc)" >&2
    exit 1
  }
done

for catalog in Packages/*/Sources/*/*.docc; do
  product="$(basename "$catalog" .docc)"
  graphs="$work/symbol-graphs/$product"
  mkdir -p "$graphs"
  swift-symbolgraph-extract -module-name "$product" -target "$triple" -I "$modules" -output-dir "$graphs" \
    -minimum-access-level public -emit-extension-block-symbols "${c_modules[@]}"
  docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$work/$product.doccarchive" \
    --fallback-display-name "$product" --fallback-bundle-identifier "org.deluxeinjection.$product" \
    --warnings-as-errors >"$work/$product.log" 2>&1 || {
    cat "$work/$product.log" >&2
    echo "docs: $product has documentation warnings (above)" >&2
    exit 1
  }
  echo "docs: $product -> $work/$product.doccarchive"
done
