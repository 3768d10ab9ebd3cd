#!/usr/bin/env bash
# Builds the C++ core and its Catch2 suite (tests/core/*.cpp) with clang++ under
# AddressSanitizer + UndefinedBehaviorSanitizer in build/sanitize (separate from build/native)
# and runs the suite. Any sanitizer report stops the run (-fno-sanitize-recover=all) and fails
# this script; leaks are reported at exit (LeakSanitizer).
# Usage: scripts/sanitize.sh [extra Catch2 arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
clangxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$clangxx" ]; then
  echo "sanitize: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 1
fi

start=$(date +%s)
# The `sanitize` preset builds at -O1 -g1: fast to compile, readable stack traces, and the
# sanitizers still see every access. Like the other test builds it is a unity build (the hidden
# `unity` preset: eight sources a translation unit).
cmake --preset sanitize -DCMAKE_CXX_COMPILER="$clangxx" >/dev/null
avx2=0  # the kernel tests compiled for AVX2 too, on x86-64 CPUs that have it
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then avx2=1; fi
{ cmake --build --preset sanitize -j"$jobs" &&
  if [ "$avx2" = 1 ]; then cmake --build build/sanitize --target posenc_kernel_tests_avx2 -j"$jobs"; fi; } \
  >build/sanitize/build.log 2>&1 || {
  cat build/sanitize/build.log >&2
  echo "sanitize: FAILED to build" >&2
  exit 1
}
built=$(date +%s)

export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
build/sanitize/posenc_tests --reporter compact "$@" 2>&1 | tee build/sanitize/test.log || status=$?
if [ "$avx2" = 1 ]; then
  build/sanitize/posenc_kernel_tests_avx2 --reporter compact "$@" 2>&1 | tee -a build/sanitize/test.log || status=$?
fi
end=$(date +%s)

result=$(grep -E '^(All tests passed|test cases:)' build/sanitize/test.log | paste -sd ';' || true)
findings=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' build/sanitize/test.log || true)
if [ "$status" = 0 ] && [ "$findings" = 0 ]; then
  echo "sanitize: PASSED under ASan+UBSan+LSan: ${result:-no summary} (build $((built - start)) s, run $((end - built)) s)"
else
  echo "sanitize: FAILED (exit $status, $findings sanitizer report(s)): ${result:-see build/sanitize/test.log}" >&2
  exit 1
fi
