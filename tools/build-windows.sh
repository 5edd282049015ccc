#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-compiles vksort for Windows x86-64 with Debian's MinGW-w64, build only (nothing runs):
# installs what is missing, configures build-windows/ with cmake/toolchains/mingw-w64-x86_64.cmake,
# builds the library, sort-test, pipeline-stats and the examples with warnings as errors, and
# checks that each program is a PE32+ x86-64 executable importing no DLL beyond Windows' own
# (volk loads vulkan-1.dll at run time). The shaders compile with the build machine's glslc.
# The Catch2 tests are left out: Debian's Catch2 is built for the build machine only.
#   tools/build-windows.sh
# VKSORT_WINDOWS_BUILD_DIR chooses another build directory; VKSORT_CMAKE_ARGS adds configure
# arguments; CMAKE_BUILD_PARALLEL_LEVEL limits the build's jobs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKSORT_WINDOWS_BUILD_DIR:-$root/build-windows}
triple=x86_64-w64-mingw32
# The posix thread model's compiler alone (g++-mingw-w64-x86-64 would add the win32 one too).
"$root/tools/deps.sh" g++-mingw-w64-x86-64-posix libz-mingw-w64-dev file
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja --toolchain "$root/cmake/toolchains/mingw-w64-x86_64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DVKSORT_WERROR=ON -DVKSORT_BUILD_TESTS=OFF -DVKSORT_BUILD_TOOLS=ON \
  -DVKSORT_BUILD_EXAMPLES=ON "-DEXAMPLE_VOLK_SOURCE_DIR=$build/vksort-host-headers/volk" ${VKSORT_CMAKE_ARGS:-}
cmake --build "$build"

status=0
# The library: an archive of x86-64 COFF objects.
lib=$build/libvksort.a
if [ -f "$lib" ] && "$triple-objdump" -a "$lib" | grep -q "file format pe-x86-64" &&
  ! "$triple-objdump" -a "$lib" | grep "file format" | grep -qv "file format pe-x86-64"; then
  echo "build-windows.sh: ${lib#"$build"/}: x86-64 COFF objects"
else
  echo "build-windows.sh: ${lib#"$build"/} is missing or not x86-64 COFF" >&2
  status=1
fi
# Windows' own DLLs (any case); anything else would have to ship beside the program.
system_dlls='^(kernel32|user32|advapi32|shell32|ole32|ws2_32|msvcrt|ucrtbase|api-ms-win-.*)\.dll$'
for exe in sort-test.exe pipeline-stats.exe examples/point-depth/point-depth.exe examples/splat/splat.exe; do
  path=$build/$exe
  if [ ! -f "$path" ]; then
    echo "build-windows.sh: $exe is missing" >&2
    status=1
    continue
  fi
  kind=$(file -b "$path")
  if [[ $kind != "PE32+ executable (console) x86-64"* ]]; then
    echo "build-windows.sh: $exe is not a PE32+ x86-64 console executable: $kind" >&2
    status=1
    continue
  fi
  dlls=$("$triple-objdump" -p "$path" | sed -n 's/^\tDLL Name: //p' | tr '\n' ' ')
  foreign=$(for d in $dlls; do echo "$d"; done | tr '[:upper:]' '[:lower:]' | grep -Ev "$system_dlls" || true)
  if [ -n "$foreign" ]; then
    echo "build-windows.sh: $exe imports DLLs a bare Windows lacks: $foreign" >&2
    status=1
    continue
  fi
  echo "build-windows.sh: $exe: $kind; imports $dlls"
done
exit $status
