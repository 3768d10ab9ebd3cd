#!/usr/bin/env bash
# Builds everything the tests and the page need: the native core + Catch2 tests (build/native)
# and the two WebAssembly modules (dist/posenc-simd.*, dist/posenc-scalar.*), through the
# presets of CMakePresets.json. First runs scripts/setup.sh (without --browser), which installs
# only what is missing (compilers, Emscripten, the pinned xsimd and Catch2, npm packages), so
# `npm run build` works on a fresh clone; when everything is there it costs a fraction of a second.
# Usage: scripts/build.sh [native|wasm]...   (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
# Emscripten 3.1.6's JS optimizer needs Debian's acorn, which Node does not find by itself.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc 2>/dev/null || echo 2)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(native wasm)
for target in "${targets[@]}"; do
  case "$target" in
    native)
      cmake --preset native >/dev/null
      cmake --build --preset native -j"$jobs"
      ;;
    wasm)
      emcmake cmake --preset wasm >/dev/null
      cmake --build --preset wasm -j"$jobs"
      ;;
    *) echo "build.sh: unknown target $target" >&2; exit 2 ;;
  esac
done
