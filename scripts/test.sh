#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, and runs every suite:
#   1. the Catch2 tests of the C++ core (native, through ctest);
#   2. the Node tests of the JS API on the real WASM builds, the page's end-to-end tests in
#      headless Chromium and the npm-pack smoke test (one `node --test` run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh --browser
bash scripts/build.sh

echo "== C++ core (Catch2, native)"
ctest --test-dir build/native --output-on-failure

echo "== JS API, page and package (node --test)"
suites=()
for dir in tests/js tests/web tests/package; do
  [ -d "$dir" ] && suites+=("$dir/")
done
node --test --test-concurrency=1 "${suites[@]}"
