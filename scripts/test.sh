#!/usr/bin/env bash
# `npm test`: installs what is missing, checks formatting and lint, builds, and runs every suite:
#   1. the Catch2 tests of the C++ core (native, through ctest), then the same suite under
#      AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer (clang);
#   2. the libFuzzer targets for FUZZ_SECONDS (default 10) each, and their corpus replayed on
#      wasm32 (both cores), where size_t is 32 bits;
#   3. the Node tests of the JS API on the real WASM builds, the code blocks of README.md and docs/ (run and
#      type-checked), the page's end-to-end tests in headless Chromium and the npm-pack smoke
#      test (one `node --test` run, last, so its summary closes the output).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh --browser

echo "== Formatting and lint (clang-format, Biome)"
bash scripts/lint.sh

bash scripts/build.sh

echo "== C++ core (Catch2, native)"
ctest --preset native

echo "== C++ core under ASan + UBSan + LSan (Catch2, clang)"
bash scripts/sanitize.sh

echo "== C++ core fuzzing (libFuzzer, ${FUZZ_SECONDS:-10} s per target), corpus replayed on wasm32"
FUZZ_SECONDS=${FUZZ_SECONDS:-10} bash scripts/fuzz.sh
bash scripts/fuzz.sh wasm

echo "== JS API, page and package (node --test)"
suites=()
for dir in tests/js tests/readme tests/web tests/package tests/ecosystem; do
  [ -d "$dir" ] && suites+=("$dir/")
done
node --test --test-concurrency=1 "${suites[@]}"
