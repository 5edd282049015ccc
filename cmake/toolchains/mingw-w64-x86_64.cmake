# SPDX-License-Identifier: MIT
# Windows x86-64 with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix):
#   cmake -S . -B build-windows --toolchain cmake/toolchains/mingw-w64-x86_64.cmake
# The posix thread model: GCC 12's win32 model has no std::mutex or std::thread, which the
# harness uses. Host programs (glslc, spirv-val, git) come from the build machine; libraries and
# headers only from the MinGW root. The Vulkan headers and volk, sources the same for every
# target, are the build machine's, copied into the build tree (cmake/VksortVulkanHeaders.cmake,
# cmake/VksortVolk.cmake). The MinGW root has no vulkan-1 import library (Debian ships none), so
# FindVulkan finds the loader only when given one: tools/build-windows.sh generates it and passes
# it and a copy of the headers as Vulkan_LIBRARY and Vulkan_INCLUDE_DIR.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(VKSORT_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${VKSORT_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${VKSORT_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${VKSORT_MINGW_TRIPLE}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${VKSORT_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Executables that run on a bare Windows: libgcc, libstdc++ and winpthread linked in, so they
# import only system DLLs, and vulkan-1.dll where they link the Vulkan loader (examples/minimal)
# rather than load it at run time with volk.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
