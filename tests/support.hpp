// Shared machinery of vksort's GPU tests.
//
// Each Catch2 test case runs in its own process (catch_discover_tests), so the context and the
// default sorter are created lazily, once per process. The Khronos validation layer with
// synchronization validation is on whenever installed; requireCleanValidation() fails a test on
// any message. VKSORT_TEST_DEVICE picks the device (index or name substring), as sort-test's
// --device does.
#pragma once

#include <vksort/vksort.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hostdata.hpp"
#include "vkcontext.hpp"

namespace vktest {

vkctx::Context& context();

// Sorter options beyond the context's defaults.
struct SorterOptions {
    uint32_t workgroupSize = 0;
    uint32_t keysPerThread = 0;
    uint32_t requiredSubgroupSize = 0;
};

// Creates a sorter on `ctx` (REQUIREs success).
VksortSorter createSorter(vkctx::Context& ctx, const SorterOptions& options = {});
// The process's default sorter on context().
VksortSorter sorter();

// Fails the current test if the validation layer reported anything; prints the messages.
void requireCleanValidation(vkctx::Context& ctx = context());

// Invalid-usage reports: while a test holds an AssertRecorder, vksort's assert handler records
// messages instead of aborting (the calls then return VK_ERROR_VALIDATION_FAILED_EXT).
class AssertRecorder {
public:
    AssertRecorder();
    ~AssertRecorder();
    const std::vector<std::string>& messages() const;
    // The last message contains `text`.
    bool lastContains(const std::string& text) const;
};

// One sort, described the way sort-test's options describe it.
struct Case {
    VksortKeyType key = VKSORT_KEY_TYPE_UINT32;
    VksortValueType value = VKSORT_VALUE_TYPE_NONE;
    uint32_t count = 0;
    hostdata::Distribution dist{};
    VksortOrder order = VKSORT_ORDER_ASCENDING;
    uint32_t beginBit = 0, endBit = 0;
    uint64_t seed = 1;
    // Capacity of the buffers (0: count). Buffers hold maxCount elements; count may be less.
    uint32_t maxCount = 0;
    // Extra bytes before each range inside its VkBuffer, in units of the range's required
    // alignment (guard bands are always there, this moves the ranges further in).
    uint32_t offsetUnits = 1;

    std::string describe() const; // the equivalent sort-test command line
};

// Sorts `c` on the GPU with `sorter` (default: the process's), each buffer range surrounded by
// canary guard bands, and checks: keys and values equal std::stable_sort's order (so the output
// is a permutation of the input and equal keys kept their order), not a byte outside the
// declared ranges changed, the result lies where vksortGetSortResult says, and the validation
// layer stayed silent. Uses Catch2 REQUIREs; the failure message names the sort-test command.
void sortAndCheck(const Case& c, VksortSorter sorter = VK_NULL_HANDLE, vkctx::Context* ctx = nullptr);

} // namespace vktest
