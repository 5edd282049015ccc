// SPDX-License-Identifier: MIT
// Randomized property tests: many random sorts (count, key type, value kind, order, bit range,
// distribution, capacity, offsets, tile shape), each checked end to end by sortAndCheck.
//
// The cases come from one seed, printed at the start of each test case. It is random per run
// unless VKSORT_TEST_SEED gives it, so CI keeps finding new cases and any failure can be
// replayed: the failure names the seed and the sort-test command line of the failing case.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "support.hpp"

using hostdata::Distribution;
using vktest::Case;

namespace {

uint64_t runSeed() {
    static const uint64_t seed = [] {
        if (const char* text = std::getenv("VKSORT_TEST_SEED")) return uint64_t(std::strtoull(text, nullptr, 10));
        return uint64_t(std::random_device{}()) ^ uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    }();
    return seed;
}

struct Limits {
    std::vector<VksortKeyType> keys = vktest::allKeyTypes();
    uint32_t maxLog2Count = 17;   // counts are log-uniform up to 2^maxLog2Count...
    uint32_t bigLog2Count = 20;   // ...and one case in 16 goes up to 2^bigLog2Count
    bool tileShapes = false;      // draw the sorter from vktest::kTileShapes too
};

uint32_t below(std::mt19937_64& rng, uint64_t n) { return n == 0 ? 0u : uint32_t(rng() % n); }

Case randomCase(std::mt19937_64& rng, const Limits& limits) {
    Case c;
    c.key = limits.keys[below(rng, limits.keys.size())];
    c.value = vktest::allValueTypes()[below(rng, 4)];
    c.order = rng() % 2 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
    // Log-uniform counts: as many small sorts (the single-workgroup path, few tiles) as large.
    uint32_t log2 = below(rng, (rng() % 16 == 0 ? limits.bigLog2Count : limits.maxLog2Count) + 1);
    c.count = log2 == 0 ? below(rng, 2) : (1u << (log2 - 1)) + below(rng, (1u << (log2 - 1)) + 1);
    const uint32_t width = hostdata::keyBits(c.key);
    if (rng() % 2) { // half the sorts use a bit range
        c.beginBit = below(rng, width);
        c.endBit = c.beginBit + 1 + below(rng, width - c.beginBit);
        if (c.endBit == width && rng() % 2) c.endBit = 0; // "up to the top", spelled both ways
    }
    switch (below(rng, 6)) {
    case 0: c.dist = vktest::dist(Distribution::Uniform); break;
    case 1: c.dist = vktest::dist(rng() % 2 ? Distribution::Sorted : Distribution::Reversed); break;
    case 2: c.dist = vktest::dist(Distribution::Equal); break;
    case 3: c.dist = vktest::dist(Distribution::Few, 1 + below(rng, rng() % 2 ? 16 : 5000)); break;
    case 4: c.dist = vktest::dist(Distribution::Bits, below(rng, 65)); break;
    default: c.dist = vktest::dist(Distribution::Uniform); break;
    }
    if (rng() % 3 == 0) c.maxCount = c.count + below(rng, c.count / 2 + 100);
    c.offsetUnits = below(rng, 5);
    if (limits.tileShapes) c.sorter = vktest::kTileShapes[below(rng, vktest::kTileShapes.size())];
    c.seed = rng() % 1000000;
    return c;
}

// `cases` random sorts; `salt` keeps the test cases' streams apart under one run seed.
void runRandomCases(uint32_t cases, uint64_t salt, const Limits& limits) {
    const uint64_t seed = runSeed();
    std::printf("random property tests: VKSORT_TEST_SEED=%llu (set it to replay this run)\n",
                static_cast<unsigned long long>(seed));
    std::fflush(stdout);
    std::mt19937_64 rng(seed ^ (salt * 0x9E3779B97F4A7C15ull));
    for (uint32_t i = 0; i < cases; ++i) {
        Case c = randomCase(rng, limits);
        INFO("random case " << i + 1 << " of " << cases << " from VKSORT_TEST_SEED=" << seed);
        vktest::sortAndCheck(c);
    }
}

} // namespace

TEST_CASE("random sorts: 32-bit keys", "[random]") {
    Limits limits;
    limits.keys = {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT32, VKSORT_KEY_TYPE_FLOAT32};
    runRandomCases(80, 1, limits);
}

TEST_CASE("random sorts: 64-bit keys", "[random]") {
    Limits limits;
    limits.keys = {VKSORT_KEY_TYPE_UINT64, VKSORT_KEY_TYPE_INT64, VKSORT_KEY_TYPE_FLOAT64};
    runRandomCases(60, 2, limits);
}

TEST_CASE("random sorts: small counts", "[random]") {
    Limits limits;
    limits.maxLog2Count = 13; // around the single-workgroup limit and the first tiles
    limits.bigLog2Count = 13;
    runRandomCases(120, 3, limits);
}

TEST_CASE("random sorts: other tile shapes", "[random]") {
    Limits limits;
    limits.tileShapes = true;
    limits.maxLog2Count = 15;
    limits.bigLog2Count = 18;
    runRandomCases(60, 4, limits);
}
