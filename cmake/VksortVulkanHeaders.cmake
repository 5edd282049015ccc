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
