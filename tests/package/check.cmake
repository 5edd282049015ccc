# Script mode (cmake -P), run by ctest (tests/CMakeLists.txt, label "package"): builds
# tests/package/ as a separate project that consumes vksort, then runs its two programs; or, for
# MODE=pkg-config, builds tests/pkgconfig/ with make and pkg-config alone, then runs it.
#   -DMODE=find_package|add_subdirectory|pkg-config  how the project gets vksort
#   -DVKSORT_SOURCE_DIR=<dir>   vksort's sources      -DVKSORT_BUILD_DIR=<dir>  the build to install
#   -DWORK_DIR=<dir>            emptied, then holds the prefix and the project's build
#   -DGENERATOR=, -DC_COMPILER=, -DCXX_COMPILER=, -DBUILD_TYPE=, -DCONFIG=  as the build's
#   -DSANITIZE=<list>           the build's VKSORT_SANITIZE: the consumers must link the runtime
#   -DPKG_CONFIG=, -DMAKE=      pkg-config mode: the programs to run
# find_package: `cmake --install` the build into WORK_DIR/prefix, configure with
# CMAKE_PREFIX_PATH=<prefix>. add_subdirectory: the project adds VKSORT_SOURCE_DIR itself.
# pkg-config: the same install, then tests/pkgconfig/Makefile with PKG_CONFIG_PATH=<its .pc's dir>.
cmake_minimum_required(VERSION 3.21)
foreach(required MODE VKSORT_SOURCE_DIR VKSORT_BUILD_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "check.cmake: -D${required}=... is required")
  endif()
endforeach()

function(run)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "package(${MODE}): ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package(${MODE}): failed (${rc}): ${shown}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")

set(configure ${CMAKE_COMMAND} -S "${VKSORT_SOURCE_DIR}/tests/package" -B "${build}" -G "${GENERATOR}"
    "-DVKSORT_PACKAGE_MODE=${MODE}")
foreach(pair "CMAKE_C_COMPILER=C_COMPILER" "CMAKE_CXX_COMPILER=CXX_COMPILER" "CMAKE_BUILD_TYPE=BUILD_TYPE")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 cmake_var)
  list(GET pair 1 var)
  if(NOT "${${var}}" STREQUAL "")
    list(APPEND configure "-D${cmake_var}=${${var}}")
  endif()
endforeach()
if(NOT "${SANITIZE}" STREQUAL "")
  # A sanitized libvksort.a needs the sanitizer runtime in every program that links it.
  list(APPEND configure "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
  if(MODE STREQUAL "add_subdirectory")
    list(APPEND configure "-DVKSORT_SANITIZE=${SANITIZE}")
  endif()
endif()
set(config_args "")
if(NOT "${CONFIG}" STREQUAL "")
  set(config_args --config "${CONFIG}")
endif()

if(MODE STREQUAL "find_package" OR MODE STREQUAL "pkg-config")
  run(${CMAKE_COMMAND} --install "${VKSORT_BUILD_DIR}" --prefix "${prefix}" ${config_args})
  foreach(file include/vksort/vksort.h)
    if(NOT EXISTS "${prefix}/${file}")
      message(FATAL_ERROR "package(${MODE}): ${file} was not installed")
    endif()
  endforeach()
endif()
if(MODE STREQUAL "pkg-config")
  file(GLOB_RECURSE pc "${prefix}/*/vksort.pc")
  list(LENGTH pc found)
  if(NOT found EQUAL 1)
    message(FATAL_ERROR "package(${MODE}): expected one vksort.pc under ${prefix}, found: ${pc}")
  endif()
  get_filename_component(pcdir "${pc}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pcdir}")
  run(${PKG_CONFIG} --cflags --libs vksort) # shown in the log
  # No CMake on the consuming side: the Makefile's flags are pkg-config's, plus the sanitizer
  # runtime that a sanitized libvksort.a needs.
  set(make_args -C "${build}" -f "${VKSORT_SOURCE_DIR}/tests/pkgconfig/Makefile"
      "SRC_DIR=${VKSORT_SOURCE_DIR}/tests/pkgconfig" "PKG_CONFIG=${PKG_CONFIG}")
  if(NOT "${C_COMPILER}" STREQUAL "")
    list(APPEND make_args "CC=${C_COMPILER}")
  endif()
  if(NOT "${SANITIZE}" STREQUAL "")
    list(APPEND make_args "LDFLAGS=-fsanitize=${SANITIZE}")
  endif()
  file(MAKE_DIRECTORY "${build}")
  run(${MAKE} ${make_args})
  run("${build}/vksort-pkgconfig")
  message(STATUS "package(${MODE}): passed")
  return()
endif()
if(MODE STREQUAL "find_package")
  file(GLOB_RECURSE configs "${prefix}/*/vksortConfig.cmake" "${prefix}/*/vksortConfigVersion.cmake"
       "${prefix}/*/vksortTargets.cmake")
  list(LENGTH configs found)
  if(NOT found EQUAL 3)
    message(FATAL_ERROR "package(${MODE}): expected vksortConfig, vksortConfigVersion and vksortTargets.cmake, found: ${configs}")
  endif()
  list(APPEND configure "-DCMAKE_PREFIX_PATH=${prefix}" "-DVKSORT_EXPECTED_PREFIX=${prefix}")
elseif(MODE STREQUAL "add_subdirectory")
  list(APPEND configure "-DVKSORT_SOURCE_DIR=${VKSORT_SOURCE_DIR}")
else()
  message(FATAL_ERROR "check.cmake: MODE must be find_package, add_subdirectory or pkg-config")
endif()

run(${configure})
run(${CMAKE_COMMAND} --build "${build}" ${config_args})
# The programs: each sorts on the first Vulkan device (lavapipe in CI) and checks on the host.
foreach(program vksort-consumer-volk vksort-consumer-loader)
  file(GLOB_RECURSE exe "${build}/consumer/${program}" "${build}/consumer/${program}.exe"
       "${build}/consumer/*/${program}" "${build}/consumer/*/${program}.exe")
  if(NOT exe)
    message(FATAL_ERROR "package(${MODE}): ${program} was not built")
  endif()
  list(GET exe 0 exe)
  run("${exe}")
endforeach()
message(STATUS "package(${MODE}): passed")
