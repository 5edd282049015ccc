// SPDX-License-Identifier: MIT
// Every key type, value kind and order; bit ranges; and the floating-point order checked
// against an IEEE 754 totalOrder written from the standard, not from the bit trick that both
// vksort and hostdata use.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "support.hpp"

using hostdata::Distribution;
using vktest::Case;

namespace {

// key type x value kind x order, at a single-workgroup count and a multi-pass count with a
// partial last tile.
void sortEveryCombination(VksortKeyType key) {
    const uint32_t tile = vktest::properties(vktest::sorter()).tileSize;
    for (VksortValueType value : vktest::allValueTypes()) {
        for (VksortOrder order : {VKSORT_ORDER_ASCENDING, VKSORT_ORDER_DESCENDING}) {
            for (uint32_t count : {1000u, 3 * tile + 5}) {
                Case c;
                c.key = key;
                c.value = value;
                c.order = order;
                c.count = count;
                c.seed = count * 8 + uint32_t(value) * 2 + uint32_t(order);
                vktest::sortAndCheck(c);
            }
        }
    }
}

// Bit ranges with odd pass counts (result in the scratch) and even ones, digits that straddle
// the two words of a 64-bit key, ranges that end below the top bit (a slice of the mapped key,
// see VksortSortInfo), 1-bit ranges and the sign bit alone.
void sortBitRanges(VksortKeyType key) {
    const uint32_t width = hostdata::keyBits(key);
    std::vector<std::pair<uint32_t, uint32_t>> ranges = {{0, 4}, {0, 8}, {3, 21}, {5, 6}, {28, 32}, {31, 32},
                                                         {0, 31}, {1, 32}, {17, 0}};
    if (width == 64) {
        ranges.insert(ranges.end(), {{0, 40}, {30, 34}, {29, 41}, {32, 64}, {60, 64}, {63, 0}, {0, 60}, {1, 64},
                                     {33, 62}});
    }
    const uint32_t tile = vktest::properties(vktest::sorter()).tileSize;
    uint32_t i = 0;
    for (auto [begin, end] : ranges) {
        for (uint32_t count : {777u, 4 * tile + 9}) {
            Case c;
            c.key = key;
            c.value = i % 3 == 0 ? VKSORT_VALUE_TYPE_INDEX : VKSORT_VALUE_TYPE_UINT32;
            c.order = i % 2 == 0 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
            c.count = count;
            c.beginBit = begin;
            c.endBit = end;
            // Few distinct keys make ties in the sorted bits common, so stability is at stake.
            c.dist = i % 4 == 1 ? vktest::dist(Distribution::Few, 40) : vktest::dist(Distribution::Uniform);
            c.seed = 100 + i;
            ++i;
            vktest::sortAndCheck(c);
        }
    }
}

} // namespace

TEST_CASE("u32 keys: every value kind and order", "[types]") { sortEveryCombination(VKSORT_KEY_TYPE_UINT32); }
TEST_CASE("i32 keys: every value kind and order", "[types]") { sortEveryCombination(VKSORT_KEY_TYPE_INT32); }
TEST_CASE("f32 keys: every value kind and order", "[types]") { sortEveryCombination(VKSORT_KEY_TYPE_FLOAT32); }
TEST_CASE("u64 keys: every value kind and order", "[types]") { sortEveryCombination(VKSORT_KEY_TYPE_UINT64); }
TEST_CASE("i64 keys: every value kind and order", "[types]") { sortEveryCombination(VKSORT_KEY_TYPE_INT64); }
TEST_CASE("f64 keys: every value kind and order", "[types]") { sortEveryCombination(VKSORT_KEY_TYPE_FLOAT64); }

TEST_CASE("bit ranges of 32-bit keys", "[types][bits]") {
    for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT32, VKSORT_KEY_TYPE_FLOAT32}) {
        sortBitRanges(key);
    }
}

TEST_CASE("bit ranges of 64-bit keys", "[types][bits]") {
    for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT64, VKSORT_KEY_TYPE_INT64, VKSORT_KEY_TYPE_FLOAT64}) {
        sortBitRanges(key);
    }
}

// ---- IEEE 754 totalOrder --------------------------------------------------------------------

namespace {

// IEEE 754-2019 5.10 totalOrder(x, y), decided from the values where they are numbers and from
// sign, class and payload where they are not:
//   numbers: x < y numerically, and -0 < +0;
//   NaNs: below every number when negative, above when positive; between NaNs the negative sign
//   first; for equal signs signalling below quiet when positive (above when negative), and
//   larger payloads further from zero.
template <typename Float, typename Bits>
bool totalOrderLess(Bits a, Bits b) {
    Float x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    const bool xNaN = std::isnan(x), yNaN = std::isnan(y);
    const bool xNeg = std::signbit(x), yNeg = std::signbit(y);
    if (!xNaN && !yNaN) {
        if (x < y) return true;
        if (y < x) return false;
        return xNeg && !yNeg; // equal numbers: only -0 < +0 remains
    }
    if (xNaN != yNaN) {
        // One NaN: a negative NaN is below every number, a positive one above.
        return xNaN ? xNeg : !yNeg;
    }
    if (xNeg != yNeg) return xNeg;
    constexpr int mantissaBits = std::numeric_limits<Float>::digits - 1;
    const Bits quietBit = Bits(1) << (mantissaBits - 1);
    const Bits payloadMask = quietBit - 1;
    // (quiet, payload) grows away from zero: +sNaN < +qNaN, and -qNaN < -sNaN.
    auto away = [&](Bits v) { return std::make_pair((v & quietBit) != 0, v & payloadMask); };
    return xNeg ? away(b) < away(a) : away(a) < away(b);
}

template <typename Float, typename Bits>
std::vector<Bits> specialValues() {
    using L = std::numeric_limits<Float>;
    constexpr int mantissaBits = L::digits - 1;
    const Bits sign = Bits(1) << (sizeof(Bits) * 8 - 1);
    const Bits exponentAll = ~sign & ~((Bits(1) << mantissaBits) - 1);
    const Bits quiet = Bits(1) << (mantissaBits - 1);
    auto bits = [](Float f) {
        Bits b;
        std::memcpy(&b, &f, sizeof b);
        return b;
    };
    std::vector<Bits> positive = {
        bits(Float(0)),         bits(L::denorm_min()),       bits(L::denorm_min()) * 2 + 1,
        bits(L::min()) - 1,     bits(L::min()),              bits(Float(1)),
        bits(Float(1.5)),       bits(L::max()),              bits(L::infinity()),
        exponentAll | 1,        exponentAll | 2,             exponentAll | (quiet - 1), // signalling NaNs
        exponentAll | quiet,    exponentAll | quiet | 1,     exponentAll | quiet | (quiet - 1), // quiet NaNs
    };
    std::vector<Bits> all = positive;
    for (Bits p : positive) all.push_back(p | sign);
    return all;
}

// Sorts every special value (each several times, so equal keys meet) among random bit patterns
// and checks the GPU's order against totalOrderLess: adjacent keys in order, equal keys only
// where the bit patterns are equal, and the exact sequence std::stable_sort gives.
template <typename Float, typename Bits>
void checkTotalOrder(VksortKeyType key, VksortOrder order, uint32_t count, VksortValueType value) {
    std::vector<Bits> specials = specialValues<Float, Bits>();
    std::mt19937_64 rng(count);
    std::vector<Bits> keys(count);
    for (uint32_t i = 0; i < count; ++i) {
        keys[i] = i % 3 == 0 ? specials[rng() % specials.size()] : Bits(rng());
    }
    hostdata::Data input;
    input.keyType = key;
    input.valueType = value;
    input.count = count;
    input.keys.resize(size_t(count) * sizeof(Bits));
    std::memcpy(input.keys.data(), keys.data(), input.keys.size());
    if (value == VKSORT_VALUE_TYPE_UINT32) {
        input.values.resize(size_t(count) * 4);
        for (uint32_t i = 0; i < count; ++i) std::memcpy(input.values.data() + size_t(i) * 4, &i, 4);
    }

    Case c;
    c.key = key;
    c.value = value;
    c.count = count;
    c.order = order;
    vktest::SortOutput out = vktest::sortAndCheck(c, input);
    INFO("keys " << (order == VKSORT_ORDER_ASCENDING ? "ascending" : "descending") << ", " << count << " of them");

    std::vector<Bits> sorted(count);
    std::memcpy(sorted.data(), out.keys.data(), out.keys.size());
    auto before = [&](Bits a, Bits b) {
        return order == VKSORT_ORDER_ASCENDING ? totalOrderLess<Float>(a, b) : totalOrderLess<Float>(b, a);
    };
    for (uint32_t i = 1; i < count; ++i) {
        if (sorted[i - 1] == sorted[i]) continue;
        INFO("position " << i << ": 0x" << std::hex << sorted[i - 1] << " then 0x" << sorted[i]);
        REQUIRE(before(sorted[i - 1], sorted[i]));
    }
    std::vector<Bits> expected = keys;
    std::stable_sort(expected.begin(), expected.end(), before);
    CHECK(sorted == expected);
    // And the values: the stable order of the indices, from the independent comparator.
    if (value == VKSORT_VALUE_TYPE_UINT32) {
        std::vector<uint32_t> indices(count);
        for (uint32_t i = 0; i < count; ++i) indices[i] = i;
        std::stable_sort(indices.begin(), indices.end(), [&](uint32_t a, uint32_t b) { return before(keys[a], keys[b]); });
        std::vector<uint32_t> gotIndices(count);
        std::memcpy(gotIndices.data(), out.values.data(), out.values.size());
        CHECK(gotIndices == indices);
    }
}

} // namespace

TEST_CASE("the comparator itself follows IEEE 754 totalOrder", "[types][float]") {
    // The reference must be right before it judges the GPU: the standard's ladder, in order.
    auto bits32 = [](float f) {
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return b;
    };
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<uint32_t> ladder = {
        0xFFFFFFFFu,                       // -qNaN, largest payload
        0xFFC00000u,                       // -qNaN
        0xFFBFFFFFu,                       // -sNaN, largest payload
        0xFF800001u,                       // -sNaN
        bits32(-inf),
        bits32(-std::numeric_limits<float>::max()),
        bits32(-1.0f),
        bits32(-std::numeric_limits<float>::min()),
        bits32(-std::numeric_limits<float>::denorm_min()),
        bits32(-0.0f),
        bits32(0.0f),
        bits32(std::numeric_limits<float>::denorm_min()),
        bits32(std::numeric_limits<float>::min()),
        bits32(1.0f),
        bits32(std::numeric_limits<float>::max()),
        bits32(inf),
        0x7F800001u, // +sNaN
        0x7FBFFFFFu, // +sNaN, largest payload
        0x7FC00000u, // +qNaN
        0x7FFFFFFFu, // +qNaN, largest payload
    };
    for (size_t i = 0; i < ladder.size(); ++i) {
        for (size_t j = 0; j < ladder.size(); ++j) {
            INFO(i << " vs " << j);
            CHECK(totalOrderLess<float>(ladder[i], ladder[j]) == (i < j));
        }
    }
}

TEST_CASE("f32 keys follow IEEE 754 totalOrder", "[types][float]") {
    const uint32_t tile = vktest::properties(vktest::sorter()).tileSize;
    for (VksortOrder order : {VKSORT_ORDER_ASCENDING, VKSORT_ORDER_DESCENDING}) {
        checkTotalOrder<float, uint32_t>(VKSORT_KEY_TYPE_FLOAT32, order, 3001, VKSORT_VALUE_TYPE_NONE);
        checkTotalOrder<float, uint32_t>(VKSORT_KEY_TYPE_FLOAT32, order, 7 * tile + 11, VKSORT_VALUE_TYPE_UINT32);
    }
}

TEST_CASE("f64 keys follow IEEE 754 totalOrder", "[types][float]") {
    const uint32_t tile = vktest::properties(vktest::sorter()).tileSize;
    for (VksortOrder order : {VKSORT_ORDER_ASCENDING, VKSORT_ORDER_DESCENDING}) {
        checkTotalOrder<double, uint64_t>(VKSORT_KEY_TYPE_FLOAT64, order, 3001, VKSORT_VALUE_TYPE_UINT32);
        checkTotalOrder<double, uint64_t>(VKSORT_KEY_TYPE_FLOAT64, order, 7 * tile + 11, VKSORT_VALUE_TYPE_NONE);
    }
}
