#!/usr/bin/env bash
# Installs what posenc needs on a fresh Debian 12 machine, and only what is missing.
# System packages come from Debian's archive (apt); xsimd 13 (WebAssembly backend) and
# Catch2 3 are not in bookworm main, so their .debs are fetched from trixie / bookworm-backports
# through a private apt state, for this machine's architecture (dpkg --print-architecture),
# checked against their pinned sha256 and unpacked into .deps/ (the system apt config is untouched).
# npm packages are installed from package-lock.json (the root's, then tests/'s) when node_modules
# is missing or stale.
# Usage: scripts/setup.sh [--browser] [--goldens]   (--browser also installs Chromium for page
# tests/bench; --goldens Debian's python3-torch, for scripts/make_golden*.py)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/.deps"

want_browser=0
want_goldens=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --goldens) want_goldens=1 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- pinned header/library packages unpacked into .deps/ --------------------------------
# name version suite arch=sha256...: one hash per architecture the .deb is built for. Both are
# architecture-specific packages (Catch2's static libraries; xsimd's headers come with a
# multiarch pkg-config file), so an architecture without a pinned hash is refused: its .deb has
# not been checked. A package built as "Architecture: all" would carry one all=sha256.
pinned=(
  "libxsimd-dev 13.2.0-1 trixie amd64=60878acfc02bfca76e8c31d53a1b9fdff490c319e53f620f4327c9786eaf631f arm64=da13867bf03ea05bcf20c8cbd8c75f349e92eafbd25cfda71ef0f11993c25814"
  "libcatch2-dev 3.7.1-0.4~bpo12+1 bookworm-backports amd64=1dbb62ed9f177e1cf51e573903cc553241764bd3b6655f5a98889ad361d008dc arm64=8b1fc3ea6458ebf82a0cf78a33839643d23cd929f1e17deb724feb02c677c052"
)
arch=$(dpkg --print-architecture)
# The pinned hash of `name` for this architecture (or for all), as "deb-architecture sha256".
pinned_hash() {
  local hash
  for hash in "${@:2}"; do
    case "$hash" in
      "$arch="* | all=*) echo "${hash%%=*} ${hash#*=}"; return 0 ;;
    esac
  done
  echo "setup: no pinned sha256 for $1 on $arch (pinned for: $(printf '%s\n' "${@:2}" | sed 's/=.*//' | paste -sd ' '));" \
       "add the hash of the $arch .deb after checking it" >&2
  return 1
}
# Refused before anything is installed.
for entry in "${pinned[@]}"; do
  read -r name _version _suite hashes <<<"$entry"
  # $hashes unquoted: one argument per architecture
  pinned_hash "$name" $hashes >/dev/null || exit 1
done

# --- system packages -------------------------------------------------------------------
need=()
command -v em++ >/dev/null || need+=(emscripten)
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v dpkg-deb >/dev/null || need+=(dpkg)
command -v clang-format >/dev/null || need+=(clang-format)  # scripts/lint.sh
dpkg -s clang libclang-rt-14-dev >/dev/null 2>&1 || need+=(clang libclang-rt-14-dev)  # sanitizers + libFuzzer (scripts/sanitize.sh, fuzz.sh)
if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
if [ "$want_goldens" = 1 ] && ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then need+=(python3-torch); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

apt_state="$deps/apt"
apt_opts=(-q -oDir::State::Lists="$apt_state/lists" -oDir::Etc::SourceList=/dev/null
          -oDir::Etc::SourceParts="$apt_state/etc" -oDir::Cache="$apt_state/cache"
          -oDir::State::status=/dev/null -oAPT::Architecture="$arch" -oAPT::Sandbox::User=root)
fetched_lists=0
for entry in "${pinned[@]}"; do
  read -r name version _suite hashes <<<"$entry"
  stamp="$deps/root/.$name-$version"
  [ -e "$stamp" ] && continue
  if [ "$fetched_lists" = 0 ]; then
    mkdir -p "$apt_state/lists/partial" "$apt_state/etc" "$apt_state/cache/archives/partial"
    {
      echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main"
      echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main"
    } >"$apt_state/etc/posenc.list"
    apt-get "${apt_opts[@]}" update >/dev/null
    fetched_lists=1
  fi
  read -r deb_arch sha <<<"$(pinned_hash "$name" $hashes)"
  mkdir -p "$deps/debs" "$deps/root"
  (cd "$deps/debs" && apt-get "${apt_opts[@]}" download "$name=$version" >/dev/null)
  deb=$(ls "$deps/debs/${name}_"*"_$deb_arch.deb" | head -n 1)
  echo "$sha  $deb" | sha256sum -c --quiet - || { echo "setup: checksum mismatch for $deb" >&2; exit 1; }
  dpkg-deb -x "$deb" "$deps/root"
  touch "$stamp"
  echo "setup: unpacked $name $version into .deps/root"
done

# --- npm packages ------------------------------------------------------------------------
# Two installs, each from its lockfile when missing or stale: the root one (build, lint, page
# tests) and tests/ (the ONNX runtime, bundlers and frameworks only the test suite runs).
for prefix in "$root" "$root/tests"; do
  if [ ! -f "$prefix/node_modules/.package-lock.json" ] ||
     [ "$prefix/package-lock.json" -nt "$prefix/node_modules/.package-lock.json" ]; then
    where=${prefix#"$root"}
    echo "setup: installing npm packages${where:+ in ${where#/}/}"
    npm ci --prefix "$prefix" --no-audit --no-fund --loglevel=error
  fi
done
