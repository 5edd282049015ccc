// SPDX-License-Identifier: MIT
// The order a radix sort sorts keys by, as an unsigned integer: the one statement of it that
// vksort's CPU reference (hostdata) and cub-bench's reference for CUB both use. Header-only and
// free of Vulkan (and of vksort's enums) because nvcc compiles cub-bench, which has no other use
// for either.
#pragma once

#include <cstdint>

namespace keyorder {

enum class Kind { Unsigned, Signed, Float };

// How -0.0 and +0.0 sort. vksort and CUB differ here on purpose: vksort promises IEEE 754
// totalOrder, where -0.0 < +0.0, while CUB treats the two as equal (both stay in the output, in
// input order). CUB gives both zeros one pattern in two ways (block/radix_rank_sort_operations.cuh),
// and cub-bench must accept either: the two agree over all bits, since no other key lies between
// the two patterns, but not over a partial bit range of a descending float sort.
enum class Zeros {
    Distinct,      // vksort: totalOrder
    Equal,         // CUB's non-onesweep paths: +0.0's pattern after the descending flip
    EqualOnesweep, // CUB's onesweep path (large sorts): it flips for descending first, then gives
                   // both zeros the pattern +0.0 has before the flip
};

constexpr uint64_t allBits(uint32_t width) { return width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

// The key's bits (`width` 32 or 64) as the unsigned integer whose ascending order is the requested
// one: signed keys flip the sign bit; floats flip the sign bit of positives and every bit of
// negatives (totalOrder, NaNs of either sign at the ends); descending then flips all bits.
constexpr uint64_t ordered(uint64_t bits, uint32_t width, Kind kind, bool descending, Zeros zeros = Zeros::Distinct) {
    uint64_t sign = uint64_t(1) << (width - 1);
    uint64_t all = allBits(width);
    bool zero = zeros != Zeros::Distinct && kind == Kind::Float && (bits == sign || bits == 0);
    if (zero) bits = 0;
    uint64_t key = bits;
    if (kind == Kind::Signed) key ^= sign;
    if (kind == Kind::Float) key ^= (bits & sign) ? all : sign;
    if (descending && !(zero && zeros == Zeros::EqualOnesweep)) key ^= all;
    return key;
}

// `ordered` restricted to bits [beginBit, endBit), shifted down; endBit 0 means the key's width.
constexpr uint64_t sortKey(uint64_t bits, uint32_t width, Kind kind, bool descending, uint32_t beginBit, uint32_t endBit,
                           Zeros zeros = Zeros::Distinct) {
    if (endBit == 0) endBit = width;
    uint32_t span = endBit - beginBit;
    uint64_t mask = span >= 64 ? ~uint64_t(0) : (uint64_t(1) << span) - 1;
    return (ordered(bits, width, kind, descending, zeros) >> beginBit) & mask;
}

} // namespace keyorder
