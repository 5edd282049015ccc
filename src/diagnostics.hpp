// SPDX-License-Identifier: MIT
// Invalid usage and error messages. See ERRORS in include/vksort/vksort.h.
#pragma once

#include <vksort/vksort.h>

#include <string>

namespace vksort {

// Reports invalid usage through the process-wide assert handler and returns
// VK_ERROR_VALIDATION_FAILED_EXT (reached only if the handler returns).
VkResult invalidUsage(const char* function, const std::string& message);

// Explains an error VkResult of `function` through a message callback (when set) and returns it.
VkResult explainError(PFN_vksortMessageCallback callback, void* userData, VkResult result, const char* function,
                      const std::string& message);

// Checks a precondition of a public function; on failure reports it and returns its VkResult.
#define VKSORT_REQUIRE(condition, message)                                 \
    do {                                                                   \
        if (!(condition)) return ::vksort::invalidUsage(__func__, (message)); \
    } while (false)

// The same on behalf of the public function `function` (a helper that checks for several).
#define VKSORT_REQUIRE_FOR(function, condition, message)                   \
    do {                                                                   \
        if (!(condition)) return ::vksort::invalidUsage((function), (message)); \
    } while (false)

// The same for functions without a result.
#define VKSORT_REQUIRE_VOID(condition, message)                            \
    do {                                                                   \
        if (!(condition)) {                                                \
            (void)::vksort::invalidUsage(__func__, (message));             \
            return;                                                        \
        }                                                                  \
    } while (false)

} // namespace vksort
