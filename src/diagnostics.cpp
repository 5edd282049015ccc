// SPDX-License-Identifier: MIT
#include "diagnostics.hpp"

#include <cstdio>
#include <cstdlib>

namespace vksort {
namespace {

void VKAPI_PTR defaultAssertHandler(const char* message, void*) {
    std::fprintf(stderr, "vksort: invalid usage: %s\n", message);
    std::fflush(stderr);
    std::abort();
}

PFN_vksortAssertHandler g_handler = defaultAssertHandler;
void* g_userData = nullptr;

} // namespace

VkResult explainError(PFN_vksortMessageCallback callback, void* userData, VkResult result, const char* function,
                      const std::string& message) {
    if (callback != nullptr) {
        std::string text = std::string(function) + ": " + message;
        callback(text.c_str(), userData);
    }
    return result;
}

VkResult invalidUsage(const char* function, const std::string& message) {
    std::string text = std::string(function) + ": " + message;
    g_handler(text.c_str(), g_userData);
    return VK_ERROR_VALIDATION_FAILED_EXT;
}

} // namespace vksort

extern "C" void vksortSetAssertHandler(PFN_vksortAssertHandler handler, void* pUserData) {
    vksort::g_handler = handler != nullptr ? handler : vksort::defaultAssertHandler;
    vksort::g_userData = handler != nullptr ? pUserData : nullptr;
}
