// SPDX-License-Identifier: MIT
#version 450
// One digit pass of a segmented sort's large segments, of more than pc.singleMaxCount keys:
// workgroup s moves segment s's keys (and values) to their places for this pass's digit within the
// segment; smaller segments are segment_single.comp's. The host
// records one such dispatch per pass, alternating the ping-pong buffers as the multi-tile passes
// do.
//
// The workgroup counts the segment's digits, scans the 16 counts into where each digit starts, and
// then takes the segment's tiles in input order: it ranks each stably by digit in shared memory
// (rank.glsl), reads it back in sorted order and writes each digit's run from that digit's running
// start (scatter.glsl), which it then advances by the tile's count of the digit. Tiles in input
// order and a stable rank within each keep equal digits in input order: the pass is stable.

#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "scatter.glsl"
#include "segments.glsl"

// Per digit: the segment's count, then where its next key goes.
shared uint s_digitNext[kRadix];

// The segment's count of each digit, scanned into s_digitNext: where each digit's keys start.
void startDigits(uvec2 range, DigitMap map) {
    if (gl_LocalInvocationIndex < kRadix) s_digitNext[gl_LocalInvocationIndex] = 0u;
    barrier();
    for (uint i = range.x + gl_LocalInvocationIndex; i < range.y; i += gl_WorkGroupSize.x) {
        Key key = keysIn[i];
        OrderedKey ordered = mapsKeysIn(map) ? orderedKey(key, map) : key;
        atomicAdd(s_digitNext[digitOf(ordered, map)], 1u);
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint next = range.x;
        [[unroll]] for (uint d = 0u; d < kRadix; ++d) {
            uint count = s_digitNext[d];
            s_digitNext[d] = next;
            next += count;
        }
    }
    barrier();
}

// Once the tile is ranked: each digit's destination offset (scatter.glsl) from where its next key
// goes, which then moves past this tile's keys of the digit. Published by the next barrier.
void placeTileDigits(uint valid) {
    uint digit = gl_LocalInvocationIndex;
    if (digit < kRadix) {
        uint start = localDigitStart(digit);
        // Slots past `valid` hold the largest digit after every real key of it (rank.glsl).
        uint end = digit + 1u < kRadix ? localDigitStart(digit + 1u) : valid;
        s_digitOffset[digit] = s_digitNext[digit] - start;
        s_digitNext[digit] += end - start;
    }
}

// This pass of one segment.
void sortSegmentPass(uvec2 range) {
    DigitMap map = digitMap(pc.shift, pc.endBit);
    TileLayout place = tileLayout(KEYS_PER_THREAD);
    startDigits(range, map);
    for (uint tileBase = range.x; tileBase < range.y; tileBase += TILE_SIZE) {
        uint valid = min(TILE_SIZE, range.y - tileBase);
        Key keys[KEYS_PER_THREAD];
        Value values[KEYS_PER_THREAD];
        loadKeys(keys, tileBase, valid, place);
        keysToSortOrder(keys, map);
        setDigits(keys, valid, place, map);
        rankTile(false);
        placeTileDigits(valid);
        if (EARLY_VALUES) loadValues(values, tileBase, valid, place);
        exchangeKeys(keys, place, VALUE_WORDS > 0u); // (its barrier publishes placeTileDigits' words)
        scatterKeys(keys, valid, place, map, mapsKeysOut(map));
        scatterValues(keys, values, tileBase, valid, place, map);
        // The next tile's ranking and placing rewrite what this tile's scatter reads.
        barrier();
    }
}

void main() {
    uint segment = flatWorkgroupIndex();
    if (segment >= pc.segmentCount) return;
    uvec2 range = segmentRange(segment);
    if (range.y - range.x > pc.singleMaxCount) sortSegmentPass(range);
}
