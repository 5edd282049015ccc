# SPDX-License-Identifier: MIT
# The examples' command lines, as a user meets them: for each program, --help prints a usage to
# standard output and exits with 0, and an unknown option exits with 2 and one line on standard
# error that names it and points to --help. Neither touches Vulkan. Script mode (cmake -P -DPROGRAMS=<file>;<file>...),
# run by ctest ("example:options", examples/CMakeLists.txt) and included by check.cmake, which
# calls vksort_check_options() on the examples it builds against the installed package.
cmake_minimum_required(VERSION 3.21)

function(vksort_check_options program)
  get_filename_component(name "${program}" NAME)
  execute_process(COMMAND "${program}" --help RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "usage: ")
    message(FATAL_ERROR "${name} --help: expected a usage on standard output and exit status 0, got ${rc}:\n${out}${err}")
  endif()
  set(bad --no-such-option)
  execute_process(COMMAND "${program}" ${bad} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "${bad}" named)
  string(FIND "${err}" "--help" pointed)
  string(STRIP "${err}" line)
  string(FIND "${line}" "\n" lines)
  if(NOT rc EQUAL 2 OR named EQUAL -1 OR pointed EQUAL -1 OR NOT lines EQUAL -1)
    message(FATAL_ERROR "${name} ${bad}: expected exit status 2 and one line naming ${bad} and --help, got ${rc}:\n${out}${err}")
  endif()
  message(STATUS "${name}: --help and ${bad} as expected")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT PROGRAMS)
    message(FATAL_ERROR "options.cmake: -DPROGRAMS=<file>;<file>... is required")
  endif()
  foreach(program ${PROGRAMS})
    vksort_check_options("${program}")
  endforeach()
endif()
