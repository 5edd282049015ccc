// SPDX-License-Identifier: MIT
// Catch2's main, built once for every test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
