# SPDX-License-Identifier: MIT
# GLSL to SPIR-V at build time: one compile function for the library's shaders (shaders/), the
# tests' and the tools', and the embedding of SPIR-V in C++ sources.
#   vksort_compile_glsl(<source> <output> [WORDS] [DEFINES <NAME[=VALUE]>...] [DEPENDS <file>...])
#   vksort_embed_spirv(<output.cpp> NAMESPACE <ns> [HEADER <output.hpp>] NAMES <name>... FILES <file.spv>...)
#   vksort_embed_glsl(<output.cpp> NAMESPACE <ns> HEADER <output.hpp> SOURCES <source>...)
# glslc, else glslangValidator (Debian: glslc, glslang-tools); spirv-val validates the binaries
# when installed (Debian: spirv-tools).
include_guard(GLOBAL)

find_program(VKSORT_GLSLC glslc)
find_program(VKSORT_GLSLANG glslangValidator)
find_program(VKSORT_SPIRV_VAL spirv-val)
if(NOT VKSORT_GLSLC AND NOT VKSORT_GLSLANG)
  message(FATAL_ERROR "vksort needs glslc (Debian: glslc) or glslangValidator (Debian: glslang-tools)")
endif()
set(VKSORT_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedSpirv.cmake)

# Compiles one shader for Vulkan 1.1 into <output>, with -D<define> for each of DEFINES and
# DEPENDS (e.g. included files) as extra dependencies. The stage is the source's extension
# (.comp, .vert, .frag, .geom, .tesc, .tese). The output is a SPIR-V binary, validated with
# spirv-val, or with WORDS the SPIR-V words as comma-separated numbers for a C array initializer
# (`const uint32_t code[] = {\n#include "name.spv.inc"\n};`).
function(vksort_compile_glsl source output)
  cmake_parse_arguments(PARSE_ARGV 2 arg "WORDS" "" "DEFINES;DEPENDS")
  get_filename_component(source ${source} ABSOLUTE)
  get_filename_component(stage ${source} LAST_EXT)
  string(REPLACE "." "" stage "${stage}")
  if(NOT stage MATCHES "^(comp|vert|frag|geom|tesc|tese)$")
    message(FATAL_ERROR "vksort_compile_glsl: ${source}: the extension must name the stage (.comp, .vert, .frag...)")
  endif()
  set(defines "")
  foreach(d ${arg_DEFINES})
    list(APPEND defines -D${d})
  endforeach()
  if(VKSORT_GLSLC)
    set(compile ${VKSORT_GLSLC} -Werror -O --target-env=vulkan1.1 -fshader-stage=${stage} ${defines})
    if(arg_WORDS)
      list(APPEND compile -mfmt=num)
    endif()
  else()
    set(compile ${VKSORT_GLSLANG} -V --target-env vulkan1.1 -S ${stage} ${defines})
    if(arg_WORDS)
      list(APPEND compile -x)
    endif()
  endif()
  set(validate "")
  if(VKSORT_SPIRV_VAL AND NOT arg_WORDS)
    set(validate COMMAND ${VKSORT_SPIRV_VAL} --target-env vulkan1.1 ${output})
  endif()
  get_filename_component(name ${output} NAME)
  add_custom_command(OUTPUT ${output}
    COMMAND ${compile} ${source} -o ${output}
    ${validate}
    DEPENDS ${source} ${arg_DEPENDS}
    COMMENT "SPIR-V ${name}"
    VERBATIM)
endfunction()

# Embeds SPIR-V binaries in <output.cpp> as <ns>::kSpirvBlobs (name, words, word count) and
# <ns>::kSpirvBlobCount (cmake/EmbedSpirv.cmake). With HEADER, also generates the header that
# declares them (and <ns>::SpirvBlob), which the .cpp includes; without, the .cpp includes
# "spirv.hpp" (the library's src/spirv.hpp). Add both files to the target's sources.
function(vksort_embed_spirv output)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAMESPACE;HEADER" "NAMES;FILES")
  set(outputs ${output})
  set(header_arg "")
  if(arg_HEADER)
    list(APPEND outputs ${arg_HEADER})
    set(header_arg "-DHEADER=${arg_HEADER}")
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${output}" ${header_arg} "-DNAMES=${arg_NAMES}" "-DFILES=${arg_FILES}"
            "-DNAMESPACE=${arg_NAMESPACE}" -P ${VKSORT_EMBED_SCRIPT}
    DEPENDS ${arg_FILES} ${VKSORT_EMBED_SCRIPT}
    COMMENT "Embedding SPIR-V (${arg_NAMESPACE})"
    VERBATIM)
endfunction()

# Compiles each source (vksort_compile_glsl) and embeds the binaries, named by file stem
# (vksort_embed_spirv), for a tool's or a test's own shaders.
function(vksort_embed_glsl output)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAMESPACE;HEADER" "SOURCES")
  set(names "")
  set(files "")
  foreach(source ${arg_SOURCES})
    get_filename_component(name ${source} NAME_WE)
    set(spv ${CMAKE_CURRENT_BINARY_DIR}/${arg_NAMESPACE}_${name}.spv)
    vksort_compile_glsl(${source} ${spv})
    list(APPEND names ${name})
    list(APPEND files ${spv})
  endforeach()
  vksort_embed_spirv(${output} NAMESPACE ${arg_NAMESPACE} HEADER ${arg_HEADER} NAMES ${names} FILES ${files})
endfunction()
