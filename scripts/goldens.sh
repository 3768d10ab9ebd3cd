#!/usr/bin/env bash
# `npm run goldens`: regenerates every golden vector file under tests/golden/ by running each
# scripts/make_golden*.py with Debian's python3, which is where torch comes from (Debian 12's
# python3-torch 1.13, installed by scripts/setup.sh --goldens when missing; a python3 found
# first on PATH, such as a pyenv one, may have no torch). The outputs are deterministic, so a
# run on unchanged scripts leaves `git diff tests/golden` empty.
# Usage: scripts/goldens.sh [name...]   e.g. `npm run goldens -- xpos alibi` (default: all of them)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
/usr/bin/python3 -c 'import torch' 2>/dev/null || bash scripts/setup.sh --goldens

scripts=()
if [ $# -eq 0 ]; then
  scripts=(scripts/make_golden*.py)
else
  for name in "$@"; do scripts+=("scripts/make_golden_${name}.py"); done
fi
for script in "${scripts[@]}"; do
  [ -f "$script" ] || { echo "goldens: no $script" >&2; exit 2; }
  echo "== $script"
  /usr/bin/python3 "$script"
done
echo "goldens: done; git diff --stat tests/golden shows what changed"
