#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The second of vksort's two commands: install what is missing, build with warnings as errors
# (in build-test/), and run the fast tier of the tests with ctest: every CPU test, every argument
# check, each kernel step at subgroup widths 4 to 128, end to end at widths 8 and a reported 32,
# integration, loaders, examples (tests/CMakeLists.txt says what each tier covers).
# The Khronos validation layer (with synchronization validation) is on whenever installed.
#   tools/test.sh            the fast tier (minutes)
#   tools/test.sh --full     the full tier: everything the fast tier leaves out
#   tools/test.sh -L cpu     other ctest arguments pass through (here: only the CPU tests)
# VKSORT_BUILD_DIR and VKSORT_CMAKE_ARGS choose another build (CI's sanitizer run uses them).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKSORT_BUILD_DIR:-$root/build-test}
tier=(-LE full)
if [ "${1:-}" = --full ]; then
  tier=(-L full)
  shift
fi
[ $# -gt 0 ] && tier=()
"$root/tools/deps.sh"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKSORT_WERROR=ON ${VKSORT_CMAKE_ARGS:-}
cmake --build "$build"
jobs=$(nproc)
ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 1500 "${tier[@]}" "$@"
