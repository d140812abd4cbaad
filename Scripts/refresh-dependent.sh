#!/usr/bin/env bash
# Usage: Scripts/refresh-dependent.sh PACKAGE_DIR
# Before building a package that depends on this one by path (Integration, Integration/Benchmarks): SwiftPM
# does not notice files added to a path dependency of an existing build (start that package afresh), nor
# recompile a dependent module when only an @inlinable body it inlines changed (its objects would keep the
# old code, and an old layout of the kernel's types: recompile the package's own modules).
set -euo pipefail
cd "$(dirname "$0")/.."
package=$1
sources=$(find Packages -name '*.swift' -o -name '*.c' -o -name '*.h' | sort)
list_stamp=$(echo "$sources" | sha1sum | cut -c1-12)
contents_stamp=$(echo "$sources" | xargs cat | sha1sum | cut -c1-12)
if [ "$(cat "$package/.build/sources-stamp" 2>/dev/null)" != "$list_stamp" ]; then
  rm -rf "$package/.build"
elif [ "$(cat "$package/.build/contents-stamp" 2>/dev/null)" != "$contents_stamp" ]; then
  find "$package/Sources" "$package/Tests" -name '*.swift' -exec touch {} + 2>/dev/null || true
fi
mkdir -p "$package/.build"
echo "$list_stamp" > "$package/.build/sources-stamp"
echo "$contents_stamp" > "$package/.build/contents-stamp"
