#!/usr/bin/env bash
# `npm run bench`: the benchmark suite (big arrays, per-call cost, the page). Installs
# what is missing (Chromium included), makes sure the WASM builds are current, then runs the
# same harness in Node and in headless Chromium and prints one report (also written to
# bench/results/bench.{md,json}).
# Arguments go to bench/main.js, e.g. `npm run bench -- --env=node --only=rope-wasm-half` or
# `npm run bench -- --only=per-call`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh --browser
bash scripts/build.sh wasm
# The page's load (bench/page-load.js, its own table) runs after the full suite, or alone with
# `--only=page-load`.
if [ "${1:-}" = "--only=page-load" ]; then exec node bench/page-load.js; fi
node --expose-gc bench/main.js "$@"
if [ $# -eq 0 ]; then node bench/page-load.js; fi
