#!/usr/bin/env bash
# Builds everything the tests and the page need: the native core + Catch2 tests (build/native)
# and the two WebAssembly modules (dist/posenc-simd.*, dist/posenc-scalar.*).
# Usage: scripts/build.sh [native|wasm]...   (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Emscripten 3.1.6's JS optimizer needs Debian's acorn, which Node does not find by itself.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc 2>/dev/null || echo 2)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(native wasm)
for target in "${targets[@]}"; do
  case "$target" in
    native)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build build/native -j"$jobs"
      ;;
    wasm)
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DPOSENC_DIST_DIR="$root/dist" >/dev/null
      cmake --build build/wasm -j"$jobs"
      ;;
    *) echo "build.sh: unknown target $target" >&2; exit 2 ;;
  esac
done
