// SPDX-License-Identifier: MIT
// sort-test --stress (see stress.cpp).
#pragma once

#include <vksort/vksort.h>

#include <cstdint>

#include "hostdata.hpp"
#include "vkcontext.hpp"

struct StressOptions {
    uint32_t batches = 10;       // submissions
    uint32_t sortsPerBatch = 100; // sorts recorded into each command buffer
    uint32_t maxCount = 100000;  // largest count of one sort
    uint64_t seed = 1;
};

// Returns 0 when every sort verified and the validation layer stayed silent.
int runStress(vkctx::Context& ctx, VksortSorter sorter, const StressOptions& options);
