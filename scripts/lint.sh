#!/usr/bin/env bash
# Formatting and lint, as `npm test` checks them (and `npm run format` fixes them):
#   C++  clang-format (.clang-format) on the core, the bindings, the tests and the fuzzers;
#   JS   Biome (biome.json): formatting and lint of every JS, JSON and CSS file.
# Usage: scripts/lint.sh [--fix]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

mapfile -t cpp < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${cpp[@]}"
  npx biome check --write .
  exit 0
fi

status=0
if ! clang-format --dry-run --Werror "${cpp[@]}"; then
  echo "lint: C++ is not formatted as .clang-format says (npm run format fixes it)" >&2
  status=1
fi
if ! npx biome ci --error-on-warnings .; then
  echo "lint: Biome found formatting or lint problems (npm run format fixes the formatting)" >&2
  status=1
fi
[ "$status" = 0 ] && echo "lint: PASSED (clang-format on ${#cpp[@]} C++ files, Biome on the JS, JSON and CSS)"
exit "$status"
