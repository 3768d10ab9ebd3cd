#!/usr/bin/env bash
# `npm test`: installs what is missing, checks formatting and lint, builds, and runs every suite:
#   1. the Catch2 tests of the C++ core (native, through ctest), then the same suite under
#      AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer (clang);
#   2. the libFuzzer targets for FUZZ_SECONDS (default 5) each, and their corpus replayed on
#      wasm32 (both cores), where size_t is 32 bits;
#   3. the core as a CMake library in two consumer projects (add_subdirectory, find_package);
#   4. the Node tests of the JS API on the real WASM builds, the code blocks of README.md and
#      docs/ (run and type-checked), the page's end-to-end tests in headless Chromium, the
#      npm-pack smoke test and the bundlers' and frameworks' builds of consumer apps (one
#      `node --test` run, last, so its summary is near the end of the output; two files at a
#      time, one per core: the files share nothing but the page build, which a lock serialises),
#      then each file's time; last, every step's time.
# One suite alone (what it needs built first, nothing else; no lint, no sanitizers, no fuzzing):
#   scripts/test.sh core        the Catch2 suite, native (npm run test:core)
#   scripts/test.sh js          tests/js, tests/readme and tests/package (npm run test:js)
#   scripts/test.sh web         tests/web, in Chromium (npm run test:web)
#   scripts/test.sh ecosystem   tests/ecosystem, the bundlers and runtimes (npm run test:ecosystem)
# Extra arguments after the suite go to `node --test` (e.g. a file: scripts/test.sh js tests/js/rope.test.js).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The Node suites' folders, each run by one `node --test`, in the order given; the files' times
# go to test-artifacts/test-times.txt (scripts/test-file-times.js) and the slowest are printed.
node_suites() {
  local dirs=()
  for dir in "$@"; do
    [ -d "$dir" ] && dirs+=("$dir/")
  done
  local format=tap times=test-artifacts/test-times.txt status=0
  [ -t 1 ] && format=spec
  mkdir -p test-artifacts
  node --test --test-concurrency="${TEST_CONCURRENCY:-2}" \
    --test-reporter="$format" --test-reporter-destination=stdout \
    --test-reporter=./scripts/test-file-times.js --test-reporter-destination="$times" \
    "${dirs[@]}" || status=$?
  echo "== Test files' times ($times)"
  head -n 16 "$times"
  return "$status"
}

# The folders of each suite that runs alone.
declare -A suite_folders=(
  [js]="tests/js tests/readme tests/package"
  [web]="tests/web"
  [ecosystem]="tests/ecosystem"
)

case "${1:-all}" in
  core)
    shift
    bash scripts/setup.sh
    bash scripts/build.sh native
    ctest --preset native
    ;;
  js | web | ecosystem)
    suite=$1
    shift
    bash scripts/setup.sh --browser # the package's and the page's tests drive Chromium
    bash scripts/build.sh wasm
    if [ $# -gt 0 ]; then
      node --test --test-concurrency=1 "$@"
    else
      read -ra folders <<<"${suite_folders[$suite]}"
      node_suites "${folders[@]}"
    fi
    ;;
  all)
    # Every step's time is printed at the end, also when one fails: where CI's minutes go.
    times=()
    step() {
      local title=$1 start=$SECONDS
      shift
      echo "== $title"
      "$@"
      times+=("$(printf '%5d s  %s' $((SECONDS - start)) "$title")")
    }
    report_times() {
      echo "== Steps' times"
      printf '%s\n' "${times[@]}"
    }
    trap report_times EXIT

    step "Set-up (what is missing)" bash scripts/setup.sh --browser
    step "Formatting and lint (clang-format, Biome)" bash scripts/lint.sh
    step "Build (the native core and its tests, both WASM modules)" bash scripts/build.sh
    step "C++ core (Catch2, native)" ctest --preset native
    step "C++ core as a CMake library (add_subdirectory, find_package after install)" bash scripts/cmake-consumers.sh
    step "C++ core under ASan + UBSan + LSan (Catch2, clang)" bash scripts/sanitize.sh
    step "C++ core fuzzing (libFuzzer, ${FUZZ_SECONDS:-5} s per target)" env FUZZ_SECONDS="${FUZZ_SECONDS:-5}" bash scripts/fuzz.sh
    step "The fuzz corpus replayed on wasm32" bash scripts/fuzz.sh wasm
    # The bundlers' and frameworks' builds, the longest files, start first, so no long file is
    # left running alone at the end while the other core idles.
    step "JS API, page and package (node --test)" node_suites tests/ecosystem tests/web tests/package tests/js tests/readme
    ;;
  *)
    echo "test.sh: unknown suite $1 (core, js, web or ecosystem; none: everything)" >&2
    exit 2
    ;;
esac
