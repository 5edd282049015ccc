# SPDX-License-Identifier: MIT
# Script mode (cmake -P), run by ctest (tests/CMakeLists.txt, label "package"): builds
# tests/package/ as a separate project that consumes vksort, then runs its two programs; or, for
# MODE=pkg-config, builds tests/pkgconfig/ with make and pkg-config alone, then runs it. In
# find_package mode it also builds each example (examples/minimal, point-depth, splat) as a user
# would, a copy of examples/ configured on its own against the installed package, runs minimal,
# and checks every example's --help and its refusal of an unknown option.
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

# What every project configured here gets from the build: generator, compilers, build type.
set(build_args -G "${GENERATOR}")
foreach(pair "CMAKE_C_COMPILER=C_COMPILER" "CMAKE_CXX_COMPILER=CXX_COMPILER" "CMAKE_BUILD_TYPE=BUILD_TYPE")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 cmake_var)
  list(GET pair 1 var)
  if(NOT "${${var}}" STREQUAL "")
    list(APPEND build_args "-D${cmake_var}=${${var}}")
  endif()
endforeach()
if(NOT "${SANITIZE}" STREQUAL "")
  # A sanitized libvksort.a needs the sanitizer runtime in every program that links it.
  list(APPEND build_args "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()
set(configure ${CMAKE_COMMAND} -S "${VKSORT_SOURCE_DIR}/tests/package" -B "${build}" ${build_args}
    "-DVKSORT_PACKAGE_MODE=${MODE}")
if(NOT "${SANITIZE}" STREQUAL "")
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
  foreach(file include/vksort/vksort.h include/vksort/vksort_version.h share/doc/vksort/LICENSE)
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

# The program <name> built in <dir> (or a configuration's subdirectory of it), into <out>.
function(built_program dir name out)
  file(GLOB exe "${dir}/${name}" "${dir}/${name}.exe" "${dir}/*/${name}" "${dir}/*/${name}.exe")
  if(NOT exe)
    message(FATAL_ERROR "package(${MODE}): ${name} was not built in ${dir}")
  endif()
  list(GET exe 0 exe)
  set(${out} "${exe}" PARENT_SCOPE)
endfunction()

run(${configure})
run(${CMAKE_COMMAND} --build "${build}" ${config_args})
# The programs: each sorts on the first Vulkan device (lavapipe in CI) and checks on the host.
foreach(program vksort-consumer-volk vksort-consumer-loader)
  built_program("${build}/consumer" ${program} exe)
  run("${exe}")
endforeach()

if(MODE STREQUAL "find_package")
  # The examples, as a user builds them: a copy of examples/ (so that nothing else of vksort's
  # source tree is at hand), each example configured as a project of its own with
  # CMAKE_PREFIX_PATH=<prefix>, so that its find_package(vksort) finds the package just installed.
  include("${CMAKE_CURRENT_LIST_DIR}/options.cmake")
  file(COPY "${VKSORT_SOURCE_DIR}/examples" DESTINATION "${WORK_DIR}/source")
  foreach(example minimal point-depth splat)
    set(example_build "${WORK_DIR}/examples/${example}")
    run(${CMAKE_COMMAND} -S "${WORK_DIR}/source/examples/${example}" -B "${example_build}" ${build_args}
        "-DCMAKE_PREFIX_PATH=${prefix}")
    file(STRINGS "${example_build}/CMakeCache.txt" found REGEX "^vksort_DIR:")
    string(REGEX REPLACE "^vksort_DIR:[A-Z]+=" "" found "${found}")
    file(REAL_PATH "${prefix}" real_prefix)
    file(REAL_PATH "${found}" found_real)
    string(FIND "${found_real}/" "${real_prefix}/" at)
    if(NOT at EQUAL 0)
      message(FATAL_ERROR "package(${MODE}): examples/${example} found vksort in ${found}, not under ${prefix}")
    endif()
    run(${CMAKE_COMMAND} --build "${example_build}" ${config_args})
    built_program("${example_build}" ${example} exe)
    vksort_check_options("${exe}")
    if(example STREQUAL "minimal")
      # Sorts on the first Vulkan device and checks on the host; says OK when right.
      message(STATUS "package(${MODE}): ${exe}")
      execute_process(COMMAND "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
      message(STATUS "${out}")
      if(NOT rc EQUAL 0 OR NOT out MATCHES "^OK")
        message(FATAL_ERROR "package(${MODE}): examples/minimal failed (${rc})")
      endif()
    endif()
  endforeach()
endif()
message(STATUS "package(${MODE}): passed")
