// SPDX-License-Identifier: MIT
// Segment layouts, for the segmented sorts of sort-test --segments and cub-bench --segments: how
// many independent segments of one array and how their sizes are drawn, their offsets from a
// seed (the same layout and seed give both tools the same segments), and the verdict on a result
// whose every segment was sorted on its own. On the standard library and hostdata alone, since
// nvcc compiles cub-bench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hostdata.hpp"

namespace segmented {

// The most keys one layout may hold: offsets are uint32_t.
constexpr uint64_t kMaxKeys = UINT32_MAX;

// How many segments, and how their sizes are drawn. Sizes may be 0 (an empty segment): Nx0,
// N@0-B, and log-normal sizes that round to 0.
struct SegmentLayout {
    enum Kind {
        Fixed,    // NxS: N segments of S keys
        Uniform,  // N@A-B: N segments of A to B keys, uniform (many tiny ones: e.g. 2^18@1-32)
        LogNormal // N~M: N segments of log-normal size (sigma 1), mean about M keys
    } kind = Fixed;
    std::string text;      // as given ("2x2^22"), to name the point
    uint32_t segments = 0; // N
    uint32_t low = 0;      // S, A or M
    uint32_t high = 0;     // S, B or M
};

// One layout: NxS, N@A-B or N~M, each number decimal, 0x hex or 2^k; N at least 1, M at least 1,
// A at most B, at most kMaxKeys keys for certain (N x S, N x A). False with the reason in `why`.
bool parseLayout(const std::string& text, SegmentLayout* out, std::string* why);
// A comma-separated list of layouts, appended to `out`. False with the first bad one's reason.
bool parseLayouts(const std::string& list, std::vector<SegmentLayout>* out, std::string* why);
// What a list of layouts is, for error messages.
const char* layoutsTakes();
// The three forms, every line starting with `indent` spaces, for usage texts.
std::string layoutHelp(int indent);

// The fewest keys the layout holds whatever the seed: N x S, N x A, 0 for log-normal sizes.
uint64_t leastKeys(const SegmentLayout& layout);

// The layout's segment offsets: N + 1 of them, non-decreasing, offsets[0] = 0, the last one the
// total. The sizes come from a generator of their own (not the keys'), seeded by `seed`, and are
// computed from its raw 64-bit outputs (uniform: A + x mod (B - A + 1); log-normal: Box-Muller,
// the size exp(mu + z) rounded, mu = ln M - 1/2 so the mean is M before rounding) rather than
// through <random>'s distributions, whose results differ between standard libraries: every tool
// and host draws the same sizes. False when the total is above `maxKeys` (at most kMaxKeys; a tool
// whose sort counts in int passes less), whose segments are then not all drawn.
bool segmentOffsets(const SegmentLayout& layout, uint64_t seed, std::vector<uint32_t>* offsets,
                    uint64_t maxKeys = kMaxKeys);

// What a layout drew: for summaries and the checks before any sort.
struct Sizes {
    uint32_t segments = 0;
    uint32_t empty = 0;   // segments of 0 keys
    uint32_t largest = 0; // keys in the largest segment
    uint32_t keys = 0;    // in all of them
};
Sizes sizesOf(const std::vector<uint32_t>& offsets);

// What an argsort's value (VKSORT_VALUE_TYPE_INDEX) of a sorted segment counts from: the start of
// the whole array (one call over it, as CUB's segmented sorts on values 0..n-1 do), or the start
// of its segment (one sort per segment, each writing its own indices from 0).
enum class IndexBase { Array, Segment };

// Compares `outKeys` and `outValues` (the whole array, packed: segment s at offsets[s]; values may
// be null without values) with `input` whose every segment [offsets[s], offsets[s + 1]) is sorted
// on its own by std::stable_sort under hostdata::sortKey (with `zeros`): keys bit for bit, values
// (or, for INDEX, the permutation from `indexBase`) exactly, so stability is checked. offsets
// {0, count} verifies one sort of the whole array. The detail of a mismatch names its segment.
hostdata::Verdict verify(const hostdata::Data& input, const std::vector<uint32_t>& offsets, VksortOrder order,
                         uint32_t beginBit, uint32_t endBit, const uint8_t* outKeys, const uint8_t* outValues,
                         IndexBase indexBase, keyorder::Zeros zeros = keyorder::Zeros::Distinct);

} // namespace segmented
