#!/usr/bin/env bash
# The C++ core as a CMake library (docs/cmake.md), used the two ways another project would, by
# the consumer project tests/cmake/consumer (sinusoidal table and RoPE rotation through
# posenc::core, checked against their closed forms):
#   subdirectory  add_subdirectory of this repository;
#   package       find_package(posenc CONFIG) after `cmake --install` of this repository (configured
#                 with POSENC_BUILD_TESTS=OFF) into a prefix under build/cmake-consumers.
# Neither may build posenc's tests: the consumer project checks which targets posenc defines, and
# this script that no test executable exists in either build and what the install holds.
# The two run at the same time, each on one core, from fresh build directories; Debug (-O0),
# since they check how the core is packaged, not how fast it runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work="$root/build/cmake-consumers"
rm -rf "$work"
mkdir -p "$work"
consumer="$root/tests/cmake/consumer"
start=$(date +%s)

# package.json's version as CMake writes it (no pre-release tag), as CMakeLists.txt takes it.
version=$(node -p 'require("./package.json").version.match(/^\d+\.\d+\.\d+/)[0]')
bounds=(-DPOSENC_TABLE_BOUND="$(node -p 'require("./tests/precision.json").tableBound')"
        -DPOSENC_ROPE_BOUND="$(node -p 'require("./tests/precision.json").ropeBound')")
debug=(-DCMAKE_BUILD_TYPE=Debug)

fail() { echo "cmake consumers: $*" >&2; exit 1; }
# Checked right after configuring (Catch2 looked for) and after building (a test executable).
no_catch2() {
  if grep -q '^Catch2_DIR' "$1/CMakeCache.txt"; then fail "$2 looked for Catch2"; fi
}
no_test_executables() {
  local found
  found=$(find "$1" -type f \( -name 'posenc_tests*' -o -name 'posenc_kernel_tests*' -o -name '*_fuzz' \) | head -n 3)
  [ -z "$found" ] || fail "$2 built posenc's tests: $found"
}

subdirectory() {
  cmake -S "$consumer" -B "$work/subdirectory" "${debug[@]}" "${bounds[@]}" -DPOSENC_SOURCE_DIR="$root"
  no_catch2 "$work/subdirectory" "add_subdirectory"
  cmake --build "$work/subdirectory" -j1
  no_test_executables "$work/subdirectory" "add_subdirectory"
  "$work/subdirectory/consumer"
  # posenc's install rules stay out of a project that adds it: installing the consumer installs nothing.
  cmake --install "$work/subdirectory" --prefix "$work/subdirectory-prefix"
  [ -z "$(find "$work/subdirectory-prefix" -type f 2>/dev/null)" ] || fail "add_subdirectory brought install rules"
}

package() {
  local prefix="$work/prefix"
  cmake -S "$root" -B "$work/posenc" "${debug[@]}" -DPOSENC_BUILD_TESTS=OFF
  no_catch2 "$work/posenc" "posenc with POSENC_BUILD_TESTS=OFF"
  cmake --build "$work/posenc" -j1
  no_test_executables "$work/posenc" "posenc with POSENC_BUILD_TESTS=OFF"
  cmake --install "$work/posenc" --prefix "$prefix"
  for file in include/posenc/posenc.h lib/libposenc_core.a lib/cmake/posenc/posencConfig.cmake \
              lib/cmake/posenc/posencConfigVersion.cmake lib/cmake/posenc/posencTargets.cmake; do
    [ -f "$prefix/$file" ] || fail "the install lacks $file"
  done
  # Public headers only, and nothing that points back into this checkout.
  [ ! -e "$prefix/include/kernels" ] && [ -z "$(find "$prefix/include" -name 'phases.h')" ] ||
    fail "the install holds the core's internal headers"
  if grep -rqF "$root" "$prefix/lib/cmake"; then fail "the installed package refers to $root"; fi
  cmake -S "$consumer" -B "$work/package" "${debug[@]}" "${bounds[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
    -DPOSENC_EXPECTED_VERSION="$version"
  no_catch2 "$work/package" "find_package"
  cmake --build "$work/package" -j1
  no_test_executables "$work/package" "find_package"
  "$work/package/consumer"
}

subdirectory >"$work/subdirectory.log" 2>&1 &
subdirectory_pid=$!
package >"$work/package.log" 2>&1 &
package_pid=$!
status=0
for entry in "subdirectory:$subdirectory_pid" "package:$package_pid"; do
  name=${entry%%:*}
  if wait "${entry#*:}"; then
    echo "cmake consumer ($name): $(grep '^consumer:' "$work/$name.log")"
  else
    status=1
    echo "cmake consumer ($name): FAILED, log $work/$name.log" >&2
    tail -n 25 "$work/$name.log" >&2
  fi
done
[ "$status" = 0 ] || exit 1
echo "cmake consumers: PASSED, add_subdirectory and find_package after install ($(($(date +%s) - start)) s)"
