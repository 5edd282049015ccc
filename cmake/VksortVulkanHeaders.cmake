# SPDX-License-Identifier: MIT
# Defines Vulkan::Headers, all that vksort's library needs of Vulkan: its public header includes
# <vulkan/vulkan_core.h>, and it never links the loader. CMake's FindVulkan defines that target
# only when it finds the loader library too, so where only the headers are installed it is made
# here from them. Included by vksort's build and by the installed package's vksortConfig.cmake;
# the includer checks that the target exists afterwards.
if(NOT TARGET Vulkan::Headers)
  find_package(Vulkan QUIET)
endif()
if(NOT TARGET Vulkan::Headers)
  find_path(VKSORT_VULKAN_INCLUDE_DIR vulkan/vulkan_core.h HINTS ${Vulkan_INCLUDE_DIR} "$ENV{VULKAN_SDK}/include")
  if(VKSORT_VULKAN_INCLUDE_DIR)
    add_library(Vulkan::Headers INTERFACE IMPORTED)
    set_target_properties(Vulkan::Headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${VKSORT_VULKAN_INCLUDE_DIR}")
  endif()
endif()
# Cross-compiling (cmake/toolchains/): the target's root seldom has the headers, but they are the
# same for every target, so the build machine's serve. They are copied into the build tree, since
# their directory there (/usr/include) also holds the build machine's C library headers, which
# must stay off the cross compiler's include path.
if(NOT TARGET Vulkan::Headers AND CMAKE_CROSSCOMPILING)
  find_path(VKSORT_HOST_VULKAN_INCLUDE_DIR vulkan/vulkan_core.h HINTS "$ENV{VULKAN_SDK}/include" NO_CMAKE_FIND_ROOT_PATH)
  if(VKSORT_HOST_VULKAN_INCLUDE_DIR)
    set(VKSORT_VULKAN_INCLUDE_COPY "${CMAKE_BINARY_DIR}/vksort-host-headers/vulkan")
    # vk_video/: the video codec headers that vulkan_core.h includes (Vulkan 1.3.238 and later).
    foreach(_vksort_dir vulkan vk_video)
      if(EXISTS "${VKSORT_HOST_VULKAN_INCLUDE_DIR}/${_vksort_dir}")
        file(COPY "${VKSORT_HOST_VULKAN_INCLUDE_DIR}/${_vksort_dir}" DESTINATION "${VKSORT_VULKAN_INCLUDE_COPY}")
      endif()
    endforeach()
    add_library(Vulkan::Headers INTERFACE IMPORTED)
    set_target_properties(Vulkan::Headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${VKSORT_VULKAN_INCLUDE_COPY}")
  endif()
endif()
