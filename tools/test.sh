#!/usr/bin/env bash
# The second of vksort's two commands: install what is missing, build with warnings as errors
# (in build-test/), and run every test with ctest: the CPU unit tests, and the GPU tests on the
# best Vulkan device present at its default subgroup size and, on lavapipe, at subgroup sizes 4,
# 16, 32, 64 and 128 too (labels sg4 to sg128; from 32 up lavapipe runs 16-lane subgroups under
# the size it reports), with and without subgroup size control (tests/CMakeLists.txt says which
# cases).
# The Khronos validation layer (with synchronization validation) is on whenever installed.
#   tools/test.sh            the whole suite
#   tools/test.sh -L cpu     ctest arguments pass through (here: only the CPU tests)
# VKSORT_BUILD_DIR and VKSORT_CMAKE_ARGS choose another build (CI's sanitizer run uses them).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKSORT_BUILD_DIR:-$root/build-test}
"$root/tools/deps.sh"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKSORT_WERROR=ON ${VKSORT_CMAKE_ARGS:-}
cmake --build "$build"
jobs=$(nproc)
ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 1500 "$@"
