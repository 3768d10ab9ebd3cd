#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/*_fuzz.cpp: clang++ -fsanitize=fuzzer,address,undefined)
# in build/fuzz and runs each for a bounded time from its committed seed corpus
# (tests/fuzz/corpus/<target>, replayed first, regression inputs included), then prints the
# executions per target. Inputs that find new coverage go to build/fuzz/corpus/<target> (kept
# between runs, not committed); a crash is written to build/fuzz/artifacts/<target>/ and fails
# the script, with the command that replays it.
#
# `scripts/fuzz.sh wasm` instead replays the corpus (committed seeds and whatever native
# fuzzing added in build/fuzz/corpus) through the same targets compiled by em++ for wasm32,
# where std::size_t is 32 bits, for the SIMD128 and the scalar core, under UBSan + ASan
# (build/fuzz-wasm), FUZZ_PARALLEL replays at a time. No fuzzing there: libFuzzer does not exist
# for wasm.
#
# Usage: scripts/fuzz.sh [wasm] [target...]   (default: every tests/fuzz/*_fuzz.cpp)
#   FUZZ_SECONDS   seconds per target (default 20)
#   FUZZ_PARALLEL  targets run at the same time (default: number of cores)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${FUZZ_SECONDS:-20}
parallel=${FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 2)}
jobs=$(nproc 2>/dev/null || echo 2)

mode=native
if [ "${1:-}" = wasm ]; then
  mode=wasm
  shift
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/*_fuzz.cpp; do targets+=("$(basename "$source" .cpp)"); done
fi

if [ "$mode" = wasm ]; then
  export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}  # Emscripten 3.1.6 needs Debian's acorn
  mkdir -p build/fuzz-wasm
  emcmake cmake --preset fuzz-wasm >build/fuzz-wasm/configure.log 2>&1 || {
    cat build/fuzz-wasm/configure.log >&2
    exit 1
  }
  wasm_targets=()
  for target in "${targets[@]}"; do wasm_targets+=("${target}_simd" "${target}_scalar"); done
  cmake --build build/fuzz-wasm --target "${wasm_targets[@]}" -j"$jobs" >build/fuzz-wasm/build.log 2>&1 || {
    cat build/fuzz-wasm/build.log >&2
    echo "fuzz wasm: FAILED to build" >&2
    exit 1
  }
  # Each target's corpus (committed seeds and whatever native fuzzing added) through one
  # variant: a line "ok <count> <seconds>" in its .result file, or the log's failure.
  replay() {
    local target=$1 variant=$2 inputs=() start
    for f in tests/fuzz/corpus/"$target"/* build/fuzz/corpus/"$target"/*; do [ -f "$f" ] && inputs+=("$f"); done
    start=$(date +%s)
    if node "build/fuzz-wasm/${target}_${variant}.cjs" "${inputs[@]}" >"build/fuzz-wasm/${target}_${variant}.log" 2>&1; then
      echo "ok ${#inputs[@]} $(($(date +%s) - start))" >"build/fuzz-wasm/${target}_${variant}.result"
    else
      echo "failed ${#inputs[@]}" >"build/fuzz-wasm/${target}_${variant}.result"
    fi
  }
  for target in "${targets[@]}"; do
    for variant in simd scalar; do
      rm -f "build/fuzz-wasm/${target}_${variant}.result"
      replay "$target" "$variant" &
      while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do sleep 0.2; done
    done
  done
  wait
  failed=0
  total=0
  for target in "${targets[@]}"; do
    for variant in simd scalar; do
      log="build/fuzz-wasm/${target}_${variant}.log"
      read -r result count took <"build/fuzz-wasm/${target}_${variant}.result"
      if [ "$result" = ok ]; then
        total=$((total + count))
        echo "fuzz wasm32: ${target} (${variant}): ${count} inputs ok in ${took} s"
      else
        failed=1
        echo "fuzz wasm32: ${target} (${variant}): FAILED, log $log" >&2
        { grep -E -A2 'FUZZ_EXPECT failed|runtime error|ERROR: AddressSanitizer' "$log" || true; } | head -n 6 >&2
      fi
    done
  done
  if [ "$failed" = 1 ]; then
    echo "fuzz wasm32: FAILED" >&2
    exit 1
  fi
  echo "fuzz wasm32: PASSED, $total replays (SIMD128 and scalar cores, UBSan + ASan)"
  exit 0
fi

clangxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$clangxx" ]; then
  echo "fuzz: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 1
fi

cmake --preset fuzz -DCMAKE_CXX_COMPILER="$clangxx" >/dev/null
cmake --build build/fuzz --target "${targets[@]}" -j"$jobs" >build/fuzz/build.log 2>&1 || {
  cat build/fuzz/build.log >&2
  echo "fuzz: FAILED to build" >&2
  exit 1
}

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_target() {
  local target=$1
  mkdir -p "build/fuzz/corpus/$target" "build/fuzz/artifacts/$target"
  local corpora=("build/fuzz/corpus/$target")  # the first one receives new inputs
  [ -d "tests/fuzz/corpus/$target" ] && corpora+=("tests/fuzz/corpus/$target")
  "build/fuzz/$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="build/fuzz/artifacts/$target/" "${corpora[@]}" >"build/fuzz/$target.log" 2>&1
}

echo "== fuzz: ${#targets[@]} targets, ${seconds} s each, ${parallel} at a time"
pids=()
declare -A exit_codes=()
for target in "${targets[@]}"; do
  run_target "$target" &
  pids+=("$!:$target")
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do sleep 0.2; done
done
for entry in "${pids[@]}"; do
  code=0
  wait "${entry%%:*}" || code=$?
  exit_codes[${entry#*:}]=$code
done

stat() { { grep -E "^stat::$2:" "build/fuzz/$1.log" || true; } | awk '{print $2}' | tail -n 1; }
failed=0
total=0
printf '%-18s %12s %10s %9s %8s  %s\n' target executions exec/s seconds corpus result
for target in "${targets[@]}"; do
  log="build/fuzz/$target.log"
  runs=$(stat "$target" number_of_executed_units)
  rate=$(stat "$target" average_exec_per_sec)
  corpus=$({ grep -oE 'corp: [0-9]+' "$log" || true; } | tail -n 1 | awk '{print $2}')
  took=$({ grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" || true; } | awk '{print $5}' | tail -n 1)
  total=$((total + ${runs:-0}))
  if [ "${exit_codes[$target]}" = 0 ]; then
    result=ok
  else
    result="CRASH (exit ${exit_codes[$target]})"
    took=-
    failed=1
  fi
  printf '%-18s %12s %10s %9s %8s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "${took:-$seconds}" "${corpus:-?}" "$result"
done

if [ "$failed" = 1 ]; then
  for target in "${targets[@]}"; do
    [ "${exit_codes[$target]}" = 0 ] && continue
    log="build/fuzz/$target.log"
    echo
    echo "---- $target: $({ grep -E 'FUZZ_EXPECT failed|SUMMARY:' "$log" || true; } | head -n 1)"
    { grep -E -A2 'FUZZ_EXPECT failed|runtime error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$log" || true; } | head -n 8
    artifact=$({ grep -oE "Test unit written to [^ ]+" "$log" || true; } | awk '{print $5}' | tail -n 1)
    if [ -n "$artifact" ]; then
      echo "reproducer: $artifact   (replay: build/fuzz/$target $artifact; full log: $log)"
      sum=$(sha1sum "$artifact" | awk '{print $1}')
      for seed in tests/fuzz/corpus/"$target"/*; do
        [ -f "$seed" ] && [ "$(sha1sum "$seed" | awk '{print $1}')" = "$sum" ] && echo "  = committed seed $seed (a known, still open regression)"
      done
    else
      echo "full log: $log"
    fi
  done
  echo "fuzz: FAILED ($total executions)" >&2
  exit 1
fi
echo "fuzz: PASSED, $total executions in ${#targets[@]} targets (${seconds} s each)"
