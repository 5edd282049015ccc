#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The first of vksort's two commands: install what is missing, build (Release, in build/), and
# run sort-test on the best Vulkan device present (lavapipe when there is no GPU). Arguments
# are passed to sort-test, e.g. tools/setup.sh --count 16777216 --value u32.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/tools/deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$root/build"
"$root/build/sort-test" --list-devices
"$root/build/sort-test" "$@"
