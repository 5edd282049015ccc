// SPDX-License-Identifier: MIT
#include "guard.hpp"

#include <algorithm>
#include <cstring>

namespace guard {

void fill(void* bytes, uint64_t size) { std::memset(bytes, kCanary, size_t(size)); }

Damage check(const void* bytes, uint64_t size, const std::vector<Range>& ranges) {
    const uint8_t* b = static_cast<const uint8_t*>(bytes);
    Damage d;
    uint64_t at = 0;
    auto scan = [&](uint64_t end) {
        for (; at < end; ++at) {
            if (b[at] == kCanary) continue;
            if (d.count++ == 0) d.first = at;
        }
    };
    for (const Range& r : ranges) {
        scan(std::min(r.offset, size));
        at = std::max(at, r.offset + r.size);
    }
    scan(size);
    return d;
}

} // namespace guard
