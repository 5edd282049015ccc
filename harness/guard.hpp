// SPDX-License-Identifier: MIT
// Guard bands: canary bytes around the ranges a sort may write, checked afterwards, so that a
// write outside the ranges its bindings declared is seen (sort-test --stress and the GPU tests).
#pragma once

#include <cstdint>
#include <vector>

namespace guard {

constexpr uint8_t kCanary = 0xA5;

struct Range {
    uint64_t offset = 0, size = 0; // bytes
};

// Fills `size` bytes at `bytes` with the canary.
void fill(void* bytes, uint64_t size);

struct Damage {
    uint64_t count = 0; // canary bytes changed
    uint64_t first = 0; // the offset of the first one (when count != 0)
};

// The bytes of [0, size) at `bytes` outside every range of `ranges` (sorted by offset, not
// overlapping) that no longer hold the canary.
Damage check(const void* bytes, uint64_t size, const std::vector<Range>& ranges);

} // namespace guard
