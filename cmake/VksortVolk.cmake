# SPDX-License-Identifier: MIT
# vksort_add_volk(): the target vksort_volk, volk built as a renderer builds it: its one source
# file (Debian: libvulkan-volk-dev ships volk.c in /usr/include) with VK_NO_PROTOTYPES, which
# every user of volk.h must see too. Defined once; later calls reuse it. The harness (tools and
# tests) and tests/consumer load Vulkan with it (the examples find volk on their own, as a user
# would: examples/common/common.cmake); tests/consumer also includes this
# file from the package test's separate project, so it needs nothing but CMake and Vulkan::Headers.
include_guard(GLOBAL)

function(vksort_add_volk)
  if(TARGET vksort_volk)
    return()
  endif()
  # Sources, the same for every target: a cross build takes the build machine's too.
  find_path(VKSORT_VOLK_DIR volk.c PATHS /usr/include /usr/local/include NO_CMAKE_FIND_ROOT_PATH)
  if(NOT VKSORT_VOLK_DIR)
    message(FATAL_ERROR "volk.c not found (Debian: libvulkan-volk-dev); the tests and tools need it")
  endif()
  set(dir ${VKSORT_VOLK_DIR})
  if(CMAKE_CROSSCOMPILING)
    # Copied, as the Vulkan headers are (cmake/VksortVulkanHeaders.cmake): /usr/include also holds
    # the build machine's C library headers, which must stay off the cross compiler's path.
    set(dir ${CMAKE_BINARY_DIR}/vksort-host-headers/volk)
    file(COPY ${VKSORT_VOLK_DIR}/volk.c ${VKSORT_VOLK_DIR}/volk.h DESTINATION ${dir})
  endif()
  add_library(vksort_volk STATIC ${dir}/volk.c)
  target_include_directories(vksort_volk PUBLIC ${dir})
  target_compile_definitions(vksort_volk PUBLIC VK_NO_PROTOTYPES)
  target_link_libraries(vksort_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
endfunction()
