// What sort-test and cub-bench share besides their data (hostdata): command-line numbers and
// lists, and the statistics of timed runs, so both tools read `--counts` and report a median the
// same way. Header-only and standard library only, since nvcc compiles cub-bench.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace toolutil {

// A decimal or 0x number, or 2^N; false when malformed or above `max`.
inline bool parseUnsigned(const std::string& text, uint64_t max, uint64_t* out) {
    uint64_t v = 0;
    size_t caret = text.find('^');
    char* end = nullptr;
    if (caret != std::string::npos) { // 2^N
        if (text.substr(0, caret) != "2") return false;
        unsigned long e = std::strtoul(text.c_str() + caret + 1, &end, 10);
        if (end == text.c_str() + caret + 1 || *end != '\0' || e > 63) return false;
        v = uint64_t(1) << e;
    } else {
        v = std::strtoull(text.c_str(), &end, 0);
        if (end == text.c_str() || *end != '\0') return false;
    }
    if (v > max) return false;
    *out = v;
    return true;
}

// `value` rounded up to a multiple of `alignment` (not 0).
constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// The non-empty items of a comma-separated list.
inline std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        if (comma == std::string::npos) comma = s.size();
        if (comma > start) out.push_back(s.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

struct Stats {
    double median = 0, min = 0, max = 0;
};

// The median is the mean of the two middle samples for an even count.
inline Stats statsOf(std::vector<double> values) {
    Stats s;
    if (values.empty()) return s;
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    size_t n = values.size();
    s.median = n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    return s;
}

} // namespace toolutil
