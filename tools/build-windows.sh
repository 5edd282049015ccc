#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-compiles vksort for Windows x86-64 with Debian's MinGW-w64, build only (nothing runs):
# installs what is missing, configures build-windows/ with cmake/toolchains/mingw-w64-x86_64.cmake,
# builds the library, sort-test, pipeline-stats and the examples (minimal, point-depth, splat)
# with warnings as errors, and checks that each program is a PE32+ x86-64 console executable that
# imports no DLL beyond Windows' own, but for minimal's vulkan-1.dll: minimal links the Vulkan
# loader, as a Windows program built with the Vulkan SDK does, where the others load it at run
# time with volk. Debian ships no vulkan-1 import library for MinGW, so the script generates one
# (dlltool, from the core Vulkan 1.0-1.3 commands in the build machine's Vulkan headers) in
# build-windows/vulkan-sdk/, beside a copy of those headers, and points FindVulkan at both.
# The shaders compile with the build machine's glslc. The Catch2 tests are left out: Debian's
# Catch2 is built for the build machine only.
#   tools/build-windows.sh
# VKSORT_WINDOWS_BUILD_DIR chooses another build directory; VKSORT_CMAKE_ARGS adds configure
# arguments; CMAKE_BUILD_PARALLEL_LEVEL limits the build's jobs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKSORT_WINDOWS_BUILD_DIR:-$root/build-windows}
triple=x86_64-w64-mingw32
# The posix thread model's compiler alone (g++-mingw-w64-x86-64 would add the win32 one too).
"$root/tools/deps.sh" g++-mingw-w64-x86-64-posix file

# What a Windows Vulkan SDK gives a program that links the loader: the headers and vulkan-1's
# import library. The headers are the build machine's (Debian's libvulkan-dev, from deps.sh),
# copied so that the cross compiler's include path holds them without the build machine's C
# library headers beside them, with their times, so that a second run recompiles nothing;
# vk_video/ is what vulkan_core.h includes from Vulkan 1.3.238 on.
host_include=/usr/include
sdk=$build/vulkan-sdk
mkdir -p "$sdk/include" "$sdk/lib"
for dir in vulkan vk_video; do
  if [ -d "$host_include/$dir" ]; then
    rm -rf "${sdk:?}/include/$dir"
    cp -R -p "$host_include/$dir" "$sdk/include/"
  fi
done
# The import library exports what vulkan-1.dll exports of the core API: every command of the
# VK_VERSION_1_0 to VK_VERSION_1_3 sections of vulkan_core.h. An extension's section (its
# `#define VK_<VENDOR>_<name> 1`, lower case after the vendor) or a later version's ends a core
# one; the extensions' commands that the loader exports too (surfaces, swapchains) are left out,
# since no program here calls them through the import library.
{
  echo "LIBRARY vulkan-1.dll"
  echo "EXPORTS"
  awk '/^#define VK_VERSION_1_[0-3] 1$/ { core = 1; next }
       /^#define VK_VERSION_[0-9]+_[0-9]+ 1$/ { core = 0 }
       /^#define VK_[A-Z0-9]+_[a-z0-9_]+ 1$/ { core = 0 }
       core && /VKAPI_CALL vk[A-Za-z0-9]+\(/ {
         sub(/.*VKAPI_CALL /, ""); sub(/\(.*/, ""); print "    " $0
       }' "$sdk/include/vulkan/vulkan_core.h"
} >"$sdk/lib/vulkan-1.def"
commands=$(grep -c '^    vk' "$sdk/lib/vulkan-1.def" || true)
# Versions 1.0 to 1.3 have 215 commands: far fewer means that the header's layout was misread.
if [ "$commands" -lt 200 ]; then
  echo "build-windows.sh: only $commands core Vulkan commands found in vulkan_core.h" >&2
  exit 1
fi
"$triple-dlltool" --input-def "$sdk/lib/vulkan-1.def" --output-lib "$sdk/lib/libvulkan-1.dll.a"

# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja --toolchain "$root/cmake/toolchains/mingw-w64-x86_64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DVKSORT_WERROR=ON -DVKSORT_BUILD_TESTS=OFF -DVKSORT_BUILD_TOOLS=ON \
  -DVKSORT_BUILD_EXAMPLES=ON "-DEXAMPLE_VOLK_SOURCE_DIR=$build/vksort-host-headers/volk" \
  "-DVulkan_INCLUDE_DIR=$sdk/include" "-DVulkan_LIBRARY=$sdk/lib/libvulkan-1.dll.a" \
  "-DSPLAT_STB_INCLUDE_DIR=/usr/include/stb" \
  ${VKSORT_CMAKE_ARGS:-}
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
for exe in sort-test.exe pipeline-stats.exe examples/minimal/minimal.exe \
  examples/point-depth/point-depth.exe examples/splat/splat.exe; do
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
  foreign=$(for d in $dlls; do echo "$d"; done | tr '[:upper:]' '[:lower:]' |
    { grep -Ev "$system_dlls" || true; } | xargs)
  # minimal links the loader, so it imports vulkan-1.dll and nothing else beyond Windows' own.
  expected=""
  [ "$exe" = examples/minimal/minimal.exe ] && expected=vulkan-1.dll
  if [ "$foreign" != "$expected" ]; then
    if [ -n "$expected" ]; then
      echo "build-windows.sh: $exe must import $expected and otherwise only Windows' own DLLs;" \
        "beyond Windows' own it imports: ${foreign:-none}" >&2
    else
      echo "build-windows.sh: $exe imports DLLs a bare Windows lacks: $foreign" >&2
    fi
    status=1
    continue
  fi
  echo "build-windows.sh: $exe: $kind; imports $dlls"
done
exit $status
