// SPDX-License-Identifier: MIT
// vksort GLSL library: bindings, keys and digits, subgroup-to-workgroup scans.
//
// Every pass includes this file. Build-time defines choose the variant:
//   VKSORT_KEY_WORDS    1 (32-bit keys) or 2 (64-bit keys, as two 32-bit words: no shaderInt64)
//   VKSORT_VALUE_WORDS  0 (keys only), 1 (32-bit values or argsort indices), 2 (64-bit values)
//   VKSORT_SHUFFLE      1: the device has subgroup shuffles, and full subgroups of 16 lanes or
//                       more rank their keys in registers (rank.glsl)
//   VKSORT_SEGMENTED    1: a segmented sort's kernel (vksort_kernels.h); the tile counts and the
//                       reorder then tile each segment from its start (tile.glsl); 2: the same
//                       for segments by offsets, from the classify step's lists
// Nothing here assumes a subgroup size: subgroups may hold 1 to 128 invocations and need not
// be full, so positions inside a tile come from ballots of the active lanes, never from
// gl_SubgroupSize or gl_LocalInvocationIndex arithmetic, unless denseSubgroups() proves every
// subgroup full.

#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require
#if VKSORT_SHUFFLE
#extension GL_KHR_shader_subgroup_shuffle : require
#endif

#include "vksort_config.h"

#ifndef VKSORT_KEY_WORDS
#define VKSORT_KEY_WORDS 1
#endif
#ifndef VKSORT_VALUE_WORDS
#define VKSORT_VALUE_WORDS 0
#endif
#ifndef VKSORT_SEGMENTED
#define VKSORT_SEGMENTED 0
#endif

layout(local_size_x_id = kSpecWorkgroupSize) in;
// The subgroups per workgroup the per-subgroup counters of rank.glsl are sized for: the host sets
// it to workgroup size / the smallest subgroup size it expects. A launch with more subgroups is
// still served (the counters are shared in turns), only more slowly.
layout(constant_id = kSpecMaxSubgroups) const uint MAX_SUBGROUPS = 64;

layout(push_constant) uniform PushBlock { VksortPushConstants pc; };

const uint KEY_WORDS = VKSORT_KEY_WORDS;
const uint VALUE_WORDS = VKSORT_VALUE_WORDS;
const bool SEGMENTED = VKSORT_SEGMENTED != 0;
const bool SEGMENT_LISTS = VKSORT_SEGMENTED == 2;
#if VKSORT_KEY_WORDS == 1
#define Key uint
#else
#define Key uvec2 // .x low word, .y high word: a little-endian 64-bit key
#endif
#if VKSORT_VALUE_WORDS == 2
#define Value uvec2
#else
#define Value uint // with no values, only for the value helpers' signatures (they do nothing)
#endif

// Keys in a 16-byte vector (the counting passes load keys four words at a time), and key k of one.
const uint KEYS_PER_VECTOR = 4u / KEY_WORDS;
Key vectorKey(uvec4 vector, uint k) {
#if VKSORT_KEY_WORDS == 1
    return vector[k];
#else
    return uvec2(vector[2u * k], vector[2u * k + 1u]);
#endif
}

// Word `w` of a key or value, and the same with word `w` replaced: keys and values cross shared
// memory one 32-bit plane at a time, so kernels need not know their widths.
uint wordOf(uint v, uint w) { return v; }
uint wordOf(uvec2 v, uint w) { return v[w]; }
uint withWord(uint v, uint w, uint word) { return word; }
uvec2 withWord(uvec2 v, uint w, uint word) {
    v[w] = word;
    return v;
}

// The single-workgroup sort may read and write the same buffer (see single.comp), so it drops `restrict`.
#ifndef VKSORT_RESTRICT
#define VKSORT_RESTRICT restrict
#endif
layout(set = 0, binding = kBindingKeysIn, std430) VKSORT_RESTRICT readonly buffer KeysIn { Key keysIn[]; };
layout(set = 0, binding = kBindingKeysOut, std430) VKSORT_RESTRICT writeonly buffer KeysOut { Key keysOut[]; };
#if VKSORT_VALUE_WORDS > 0
layout(set = 0, binding = kBindingValuesIn, std430) VKSORT_RESTRICT readonly buffer ValuesIn { Value valuesIn[]; };
layout(set = 0, binding = kBindingValuesOut, std430) VKSORT_RESTRICT writeonly buffer ValuesOut { Value valuesOut[]; };
#endif
layout(set = 0, binding = kBindingTables, std430) restrict buffer Tables { uint tables[]; };

// The scan step's shape, from the tuning row (vksort_config.h, vksortScanRangeTiles).
layout(constant_id = kSpecScanOneRangeMaxTiles) const uint SCAN_ONE_RANGE_MAX_TILES = 3072;
layout(constant_id = kSpecScanRangeMinTiles) const uint SCAN_RANGE_MIN_TILES = 256;
uint scanRangeTiles(uint tiles) { return vksortScanRangeTiles(tiles, SCAN_ONE_RANGE_MAX_TILES, SCAN_RANGE_MIN_TILES); }
uint scanRanges(uint tiles) { return vksortScanRanges(tiles, SCAN_ONE_RANGE_MAX_TILES, SCAN_RANGE_MIN_TILES); }
uint scanWorkgroups(uint tiles) { return vksortScanWorkgroups(tiles, SCAN_ONE_RANGE_MAX_TILES, SCAN_RANGE_MIN_TILES); }

// ---- Launch ------------------------------------------------------------------------------

uint elementCount() {
    return (pc.flags & kFlagIndirect) != 0u ? tables[kInfoCount] : pc.count;
}

// The passes' tiles: an indirect sort's, and a segmented sort's large segments by offsets
// (kFlagSegmentLists), counted on the GPU.
uint tileCount() {
    return (pc.flags & (kFlagIndirect | kFlagSegmentLists)) != 0u ? tables[kInfoNumTiles] : pc.numTiles;
}

// The same for a step launched a workgroup per tile (the reorders). An indirect sort launches
// exactly its tiles where they fit one grid row (launch.glsl), so that its workgroups need not
// wait for a load from the tables to know whether they have a tile. (Their key count still takes
// the count, as a min: testing for the last tile first measured slower in direct sorts.)
uint launchedTileCount() {
    return (pc.flags & kFlagIndirect) != 0u && gl_NumWorkGroups.y == 1u ? gl_NumWorkGroups.x : tileCount();
}

// Word of the total of `digit` in `pass` (see vksort_config.h).
uint totalsEntry(uint pass, uint digit) {
    return kTotalsOffset + pass * kRadix + digit;
}

// Word of range `range`'s total of `digit` (the scan step's; see vksort_config.h).
uint rangeTotalsEntry(uint range, uint digit) {
    return kRangeTotalsOffset + range * kRadix + digit;
}

// Word of `digit` of tile `tile` in tile table `table`: a tile's 16 words are consecutive, so that
// the words a workgroup reads or writes for its tile, or adds into another tile's, share a cache
// line (see vksort_config.h).
uint tileTableEntry(uint table, uint tile, uint digit) {
    return kTileTablesOffset + (table * pc.rowStride + tile) * kRadix + digit;
}
// Tile `tile`'s count of `digit` in counts table `table`.
uint countEntry(uint table, uint digit, uint tile) { return tileTableEntry(table, tile, digit); }
// The same tile's counts of digits 4 * quad to 4 * quad + 3, as an index of 16-byte vectors (a
// tile's row is 16-byte aligned: vksort_config.h).
uint countQuadEntry(uint table, uint quad, uint tile) { return countEntry(table, 4u * quad, tile) / 4u; }

// Grids wider than maxComputeWorkGroupCount[0] are split into rows; this is the flat tile index.
uint flatWorkgroupIndex() {
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// Every subgroup is full, so invocation positions follow from gl_SubgroupID and
// gl_SubgroupInvocationID without a workgroup scan. Proven at run time, whatever the pipeline
// asked for: gl_NumSubgroups subgroups of at most gl_SubgroupSize lanes hold the workgroup only
// if every one is full. So the layout needs no full-subgroups request (and no device feature), and
// a driver that breaks such a promise, as lavapipe (Mesa 22.3) at 1024-bit vectors does by
// reporting 32-lane subgroups and launching 16-lane ones (tests/test_subgroups.cpp), takes the
// general path rather than a wrong one.
bool denseSubgroups() {
    return gl_NumSubgroups * gl_SubgroupSize == gl_WorkGroupSize.x;
}

// ---- Keys and digits -----------------------------------------------------------------------

// Signed and float keys, and descending order, become an unsigned integer whose ascending order
// is the requested order: the key in sort order. Keys travel between passes in sort order, so
// that the passes in between take a digit with a shift and a mask (the reorders are bound by
// instruction issue: docs/PERFORMANCE.md). The first pass maps the caller's keys as it loads them
// (kFlagMapIn), the last maps them back as it stores them (kFlagMapOut), and the counting steps,
// which read the caller's keys, map each one. Unsigned ascending keys are their own sort order:
// nothing is mapped.
//   signed:  flip the sign bit.
//   float:   negative (sign set) flips every bit, positive flips the sign bit. This is IEEE 754
//            totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
//   descending: invert the ordered key; a stable ascending sort of it keeps equal keys in input
//            order, which is what a stable descending sort means.
struct DigitMap {
    uint signBit;    // 0x80000000 for signed and float keys: flip the sign
    uint descending; // all ones for descending order: invert everything
    uint floatMask;  // all ones for float keys: negative keys flip every bit
    uint shift;     // lowest bit of the digit
    uint mask;      // (1 << digit bits) - 1
};

// Uniform per dispatch: computed once, outside the per-key work.
DigitMap digitMap(uint shift, uint endBit) {
    uint keyType = pc.flags & kFlagKeyTypeMask;
    uint descending = (pc.flags & kFlagDescending) != 0u ? 0xFFFFFFFFu : 0u;
    DigitMap map;
    map.signBit = keyType != kFlagKeyUnsigned ? 0x80000000u : 0u;
    map.descending = descending;
    map.floatMask = keyType == kFlagKeyFloat ? 0xFFFFFFFFu : 0u;
    map.shift = shift;
    map.mask = (1u << min(kDigitBits, endBit - shift)) - 1u;
    return map;
}

#if VKSORT_KEY_WORDS == 1
#define OrderedKey uint
#else
#define OrderedKey uvec2
#endif

// False when every key is its own sort order (unsigned, ascending).
bool mapsKeys(DigitMap map) {
    return (map.signBit | map.descending | map.floatMask) != 0u;
}
// This dispatch reads the caller's keys and must map them (kFlagMapIn), or writes the result and
// must map it back (kFlagMapOut).
bool mapsKeysIn(DigitMap map) { return (pc.flags & kFlagMapIn) != 0u && mapsKeys(map); }
bool mapsKeysOut(DigitMap map) { return (pc.flags & kFlagMapOut) != 0u && mapsKeys(map); }

// The key in sort order: an unsigned integer (for 64-bit keys .x the low word) in the requested order.
OrderedKey orderedKey(Key key, DigitMap map) {
#if VKSORT_KEY_WORDS == 1
    uint signFill = uint(int(key) >> 31) & map.floatMask;
    return key ^ (signFill | map.signBit) ^ map.descending;
#else
    uint signFill = uint(int(key.y) >> 31) & map.floatMask;
    return uvec2(key.x ^ signFill ^ map.descending, key.y ^ (signFill | map.signBit) ^ map.descending);
#endif
}

// The caller's key back from its sort order (the inverse of orderedKey). The sign of a float
// key's sort order is the opposite of the key's own.
Key callerKey(OrderedKey ordered, DigitMap map) {
#if VKSORT_KEY_WORDS == 1
    uint flipped = ordered ^ map.descending;
    uint signFill = ~uint(int(flipped) >> 31) & map.floatMask;
    return flipped ^ (signFill | map.signBit);
#else
    uvec2 flipped = ordered ^ uvec2(map.descending);
    uint signFill = ~uint(int(flipped.y) >> 31) & map.floatMask;
    return uvec2(flipped.x ^ signFill, flipped.y ^ (signFill | map.signBit));
#endif
}

// The digit of a key in sort order (orderedKey) for a pass that sorts bits [shift, min(shift + 4, endBit)).
uint digitOf(OrderedKey ordered, DigitMap map) {
#if VKSORT_KEY_WORDS == 1
    return (ordered >> map.shift) & map.mask;
#else
    if (map.shift >= 32u) return (ordered.y >> (map.shift - 32u)) & map.mask;
    uint bits = ordered.x >> map.shift;
    if (map.shift + kDigitBits > 32u) bits |= ordered.y << (32u - map.shift); // the digit straddles the words
    return bits & map.mask;
#endif
}

// The ordered key's bits [map.shift, endBit) moved down to bit 0, as (low word, high word): pass
// p's digit is bits [4p, 4p + 4) of it.
uvec2 sortedBits(Key key, DigitMap map, uint endBit) {
    uint width = endBit - map.shift;
#if VKSORT_KEY_WORDS == 1
    uint low = orderedKey(key, map) >> map.shift;
    return uvec2(width < 32u ? low & ((1u << width) - 1u) : low, 0u);
#else
    uvec2 ordered = orderedKey(key, map);
    uint low, high;
    if (map.shift >= 32u) {
        low = ordered.y >> (map.shift - 32u);
        high = 0u;
    } else if (map.shift > 0u) {
        low = (ordered.x >> map.shift) | (ordered.y << (32u - map.shift));
        high = ordered.y >> map.shift;
    } else {
        low = ordered.x;
        high = ordered.y;
    }
    if (width < 32u) return uvec2(low & ((1u << width) - 1u), 0u);
    return uvec2(low, width < 64u ? high & ((1u << (width - 32u)) - 1u) : high);
#endif
}

// Whether a key whose sorted bits are `theirs` goes ahead of one whose are `mine` in a stable
// sort: smaller, or equal and `earlier` in the input. 32-bit keys compare their low words alone
// (the high words are 0).
bool goesAhead(uvec2 theirs, uvec2 mine, bool earlier) {
    bool low = earlier ? theirs.x <= mine.x : theirs.x < mine.x;
#if VKSORT_KEY_WORDS == 2
    return theirs.y < mine.y || (theirs.y == mine.y && low);
#else
    return low;
#endif
}

// ---- Subgroup and workgroup scans ------------------------------------------------------------

// Lanes of this subgroup whose digit equals ours (4 ballots, one per digit bit).
uvec4 matchDigit(uint digit) {
    uvec4 peers = subgroupBallot(true);
    [[unroll]] for (uint b = 0u; b < kDigitBits; ++b) {
        bool bit = ((digit >> b) & 1u) != 0u;
        uvec4 ballot = subgroupBallot(bit);
        peers &= bit ? ballot : ~ballot;
    }
    return peers;
}

// Totals of the subgroups, scanned by subgroup 0; the grand total sits after the last subgroup.
// Sized for one-lane subgroups, so no launch of this workgroup size can overrun it.
shared uint s_subgroupTotals[gl_WorkGroupSize.x + 1u];

// Exclusive prefix sum over the workgroup of one value per invocation, in the order
// (gl_SubgroupID, active lane). Every invocation must call it (it contains barriers). A caller
// that calls it again must put a barrier between the calls (the first call's readers of
// s_subgroupTotals must be done before the second writes them).
uint workgroupExclusiveScan(uint value, out uint total) {
    uint inclusive = subgroupInclusiveAdd(value);
    uvec4 activeLanes = subgroupBallot(true);
    if (gl_SubgroupInvocationID == subgroupBallotFindMSB(activeLanes)) {
        s_subgroupTotals[gl_SubgroupID] = inclusive;
    }
    barrier();
    if (gl_SubgroupID == 0u) {
        uint lane = subgroupBallotExclusiveBitCount(activeLanes);
        uint width = subgroupBallotBitCount(activeLanes);
        uint carry = 0u;
        for (uint base = 0u; base < gl_NumSubgroups; base += width) {
            uint i = base + lane;
            uint t = i < gl_NumSubgroups ? s_subgroupTotals[i] : 0u;
            uint scanned = subgroupInclusiveAdd(t);
            if (i < gl_NumSubgroups) s_subgroupTotals[i] = carry + scanned - t;
            carry += subgroupAdd(t);
        }
        if (lane == 0u) s_subgroupTotals[gl_NumSubgroups] = carry;
    }
    barrier();
    total = s_subgroupTotals[gl_NumSubgroups];
    return s_subgroupTotals[gl_SubgroupID] + inclusive - value;
}

// Where this invocation's keys sit in a tile of gl_WorkGroupSize.x * keysPerThread keys.
// Subgroup s owns a contiguous chunk (its active lanes * keysPerThread keys, after the chunks of
// subgroups 0..s-1); in step j its lanes read consecutive keys. The order (subgroup, step, lane)
// is therefore input order, which is what makes the ranking below stable.
struct TileLayout {
    uint chunkBase; // first tile slot of this subgroup's chunk
    uint lane;      // rank among the subgroup's active lanes
    uint width;     // active lanes in this subgroup
};

TileLayout tileLayout(uint keysPerThread) {
    TileLayout place;
    if (denseSubgroups()) {
        place.lane = gl_SubgroupInvocationID;
        place.width = gl_SubgroupSize;
        place.chunkBase = gl_SubgroupID * gl_SubgroupSize * keysPerThread;
        return place;
    }
    uvec4 activeLanes = subgroupBallot(true);
    place.lane = subgroupBallotExclusiveBitCount(activeLanes);
    place.width = subgroupBallotBitCount(activeLanes);
    uint total;
    uint position = workgroupExclusiveScan(1u, total);
    place.chunkBase = (position - place.lane) * keysPerThread;
    return place;
}

uint tileSlot(TileLayout place, uint step) {
    return place.chunkBase + step * place.width + place.lane;
}
