// SPDX-License-Identifier: MIT
// sort-test --segments (see segment_sorts.cpp). Not named segments.hpp: that is the harness's
// header of segment layouts, which this one includes.
#pragma once

#include <vksort/vksort.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hostdata.hpp"
#include "segments.hpp"
#include "vkcontext.hpp"

struct SegmentsOptions {
    std::vector<segmented::SegmentLayout> layouts; // --segments
    std::vector<VksortKeyType> keyTypes;           // --keys, or --key
    std::vector<VksortValueType> valueTypes;       // --values, or --value
    VksortOrder order = VKSORT_ORDER_ASCENDING;
    uint32_t beginBit = 0, endBit = 0; // endBit 0: the key's width
    hostdata::Distribution dist;
    uint64_t seed = 1; // the keys' and the segment sizes' (each from a generator of its own)
    // --bench: every layout and format timed --reps times after --warmup seconds; one run of each
    // with at most verifyMax keys in all verified.
    bool bench = false;
    uint32_t reps = 20;
    double warmup = 2.0;
    uint32_t verifyMax = 1u << 22;
    FILE* jsonFile = nullptr; // --json and --csv (--bench only), already open; closed when written
    FILE* csvFile = nullptr;
    // What the header line and the JSON say of the run, as the rest of sort-test words it.
    std::string bitsText;   // "0:32", or one range per key width
    std::string sorterNote; // "sorter created in 12.3 ms (these formats only)"
    double createMs = 0;
    bool allFormats = false;
    bool skipConstantDigits = false;
    // --indirect: the segmented sort reads its segment count from a GPU buffer (segments by offsets
    // for every layout); --no-separate: no baseline.
    bool segmentCountOnGpu = false;
    bool separate = true;
};

// Sorts every layout's segments for every key type and value kind two ways, each verified
// segment by segment: one vksortCmdSortSegments over the whole array (uniform segments for an NxS
// layout, the offsets otherwise, which need a sorter that pushes its descriptors; offsets and a
// segment count in a GPU buffer with segmentCountOnGpu), and unless told not to the baseline, one
// vksortCmdSort per non-empty segment in one command buffer. The sorter must have
// been created with VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT. Layouts that cannot run on
// this device (a segment above vksortGetMaxCount, buffers above the largest allocation) end the
// program with status 2, naming --segments, before any sort. Returns 0 when every segment
// verified and the validation layer stayed silent, 2 when no sort could run (offsets without push
// descriptors and --no-separate), 1 otherwise.
int runSegments(vkctx::Context& ctx, VksortSorter sorter, const SegmentsOptions& options);
