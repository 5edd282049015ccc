# SPDX-License-Identifier: MIT
# What the examples share, for each example's CMakeLists.txt to include after it has found vksort
# (the target vksort::vksort):
#   example_common              a static library: Vulkan start-up, buffers, pipelines and
#                               barriers (example.hpp), linked with vksort::vksort and Vulkan
#   example_shaders(<target> <file.comp|.vert|.frag>...)
#                               compiles each GLSL shader at build time into <file>.spv.inc in the
#                               target's binary directory: SPIR-V words, comma-separated, that the
#                               source includes inside an array initializer
# It needs nothing from vksort's source tree: an example builds the same inside it and against an
# installed vksort.
include_guard(GLOBAL)

# ---- Vulkan for the examples' own calls -------------------------------------------------------
# volk, found the way a renderer finds it: its CMake package (volk::volk, from volk's own install,
# vcpkg or a Vulkan SDK); else its two sources where a distribution ships them without a package
# (Debian's libvulkan-volk-dev: volk.h and volk.c in the include directory), built here; else the
# system's Vulkan loader, linked directly. example.hpp includes volk.h when EXAMPLE_VOLK is 1.
# vksort itself needs none of them: it loads Vulkan through the vkGetInstanceProcAddr it is given.
add_library(example_vulkan INTERFACE)
find_package(volk CONFIG QUIET)
if(TARGET volk::volk)
  target_link_libraries(example_vulkan INTERFACE volk::volk)
  target_compile_definitions(example_vulkan INTERFACE EXAMPLE_VOLK=1)
  message(STATUS "examples: Vulkan through volk's CMake package (${volk_DIR})")
else()
  find_path(EXAMPLE_VOLK_SOURCE_DIR volk.c HINTS "$ENV{VULKAN_SDK}/include" DOC "The directory that holds volk.c and volk.h")
  if(EXAMPLE_VOLK_SOURCE_DIR AND EXISTS "${EXAMPLE_VOLK_SOURCE_DIR}/volk.h")
    add_library(example_volk STATIC ${EXAMPLE_VOLK_SOURCE_DIR}/volk.c)
    target_include_directories(example_volk PUBLIC ${EXAMPLE_VOLK_SOURCE_DIR})
    target_compile_definitions(example_volk PUBLIC VK_NO_PROTOTYPES)
    target_link_libraries(example_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
    target_link_libraries(example_vulkan INTERFACE example_volk)
    target_compile_definitions(example_vulkan INTERFACE EXAMPLE_VOLK=1)
    message(STATUS "examples: Vulkan through volk, built from ${EXAMPLE_VOLK_SOURCE_DIR}/volk.c")
  else()
    find_package(Vulkan REQUIRED)
    target_link_libraries(example_vulkan INTERFACE Vulkan::Vulkan)
    target_compile_definitions(example_vulkan INTERFACE EXAMPLE_VOLK=0)
    message(STATUS "examples: no volk; Vulkan through the loader (${Vulkan_LIBRARY})")
  endif()
endif()
target_link_libraries(example_vulkan INTERFACE Vulkan::Headers)

# ---- GLSL to SPIR-V ---------------------------------------------------------------------------
# glslc (Debian: glslc; the Vulkan SDK), else glslangValidator (Debian: glslang-tools).
find_program(EXAMPLE_GLSLC glslc HINTS "$ENV{VULKAN_SDK}/bin")
find_program(EXAMPLE_GLSLANG glslangValidator HINTS "$ENV{VULKAN_SDK}/bin")
if(NOT EXAMPLE_GLSLC AND NOT EXAMPLE_GLSLANG)
  message(FATAL_ERROR "the examples compile their shaders with glslc (Debian: glslc) or glslangValidator "
                      "(Debian: glslang-tools); neither was found (set EXAMPLE_GLSLC to glslc's path)")
endif()

function(example_shaders target)
  foreach(source ${ARGN})
    get_filename_component(source ${source} ABSOLUTE)
    get_filename_component(name ${source} NAME) # the stage is the extension, which stays in the name
    set(output ${CMAKE_CURRENT_BINARY_DIR}/${name}.spv.inc)
    if(EXAMPLE_GLSLC)
      set(compile ${EXAMPLE_GLSLC} -Werror -O --target-env=vulkan1.1 -mfmt=num ${source} -o ${output})
    else()
      set(compile ${EXAMPLE_GLSLANG} -V --target-env vulkan1.1 -x ${source} -o ${output})
    endif()
    add_custom_command(OUTPUT ${output} COMMAND ${compile} DEPENDS ${source} COMMENT "SPIR-V ${name}" VERBATIM)
    target_sources(${target} PRIVATE ${output})
  endforeach()
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
endfunction()

# ---- What both examples' main.cpp build on ----------------------------------------------------
add_library(example_common STATIC ${CMAKE_CURRENT_LIST_DIR}/example.cpp ${CMAKE_CURRENT_LIST_DIR}/example.hpp)
target_include_directories(example_common PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(example_common PUBLIC vksort::vksort example_vulkan)
target_compile_features(example_common PUBLIC cxx_std_17)
