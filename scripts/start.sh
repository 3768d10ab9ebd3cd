#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the WASM modules and the tutorial page, and
# serves web/site on http://127.0.0.1:$PORT/ (default 8080; a free port if that one is busy).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh --browser
bash scripts/build.sh wasm
bash scripts/build-web.sh
exec node scripts/serve.js "$root/web/site"
