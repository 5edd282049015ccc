// SPDX-License-Identifier: MIT
// Catch2's main for the GPU test binaries: runs the tests, then releases the shared Vulkan
// objects while the driver is still whole (see vktest::shutdown).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

namespace vktest {
void shutdown(); // support.cpp
}

int main(int argc, char** argv) {
    int result = Catch::Session().run(argc, argv);
    vktest::shutdown();
    return result;
}
