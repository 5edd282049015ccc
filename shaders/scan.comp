// SPDX-License-Identifier: MIT
#version 450
// The scan step, before each reorder: exclusive prefix sums of the pass's counts table (one
// count per tile and digit), within ranges of tiles, and the pass's digit totals. Which layout of
// workgroups scans them depends on the tile count (vksort_config.h, scanRanges):
//
// - One range (a few thousand tiles): workgroup d scans digit d over all tiles, in chunks of
//   gl_WorkGroupSize.x * SCAN_ITEMS_PER_THREAD tiles, each count becoming the count of its digit
//   in the tiles before it.
// - More: workgroup r scans range r, all 16 digits at once, one tile per invocation per chunk of
//   gl_WorkGroupSize.x tiles: each tile's 16 counts are one contiguous 64-byte load and store, so
//   the step moves whole cache lines, on as many multiprocessors as there are ranges. Each count
//   becomes the count of its digit in the range's tiles before it, and the range's totals go to
//   the range-totals table; the last workgroup to finish scans those across the ranges.
//
// Either way a reorder finds its tile's start of a digit from the pass's totals and the tile's
// prefix, plus its range's prefix where there are several (reorder.comp).
//
// The first pass's scan step may also decide which passes run (passes.glsl).

#include "common.glsl"
#include "passes.glsl"

// Consecutive tiles each invocation scans per chunk in the one-range layout (the tuning row's).
layout(constant_id = kSpecScanItemsPerThread) const uint SCAN_ITEMS_PER_THREAD = 16;

// Two more views of the tables, each the only one through which scanRange touches its words:
// the counts tables four words at a time (see vksort_config.h: a tile's 16 counts are 64 bytes,
// 16-byte aligned), and the range totals, coherent because the last workgroup reads what the
// others wrote in this dispatch.
layout(set = 0, binding = kBindingTables, std430) buffer TableQuads { uvec4 tableQuads[]; };
layout(set = 0, binding = kBindingTables, std430) coherent buffer RangeWords { uint rangeWords[]; };

// Per subgroup and digit, [subgroup * kRadix + digit]: the chunk's counts of the subgroup's tiles,
// then where the subgroup's tiles start within the range.
shared uint s_subgroupCounts[MAX_SUBGROUPS * kRadix];
// Per digit: the counts of the range's tiles scanned so far (all of it at the end).
shared uint s_carry[kRadix];
shared uint s_ticket;

// Digit `digit` over tiles [begin, end): each count becomes the digit's count in the tiles from
// `begin` to it; returns the digit's total there. Every invocation calls it (it has barriers).
uint scanDigit(uint digit, uint begin, uint end) {
    uint carry = 0u;
    for (uint chunk = begin; chunk < end; chunk += gl_WorkGroupSize.x * SCAN_ITEMS_PER_THREAD) {
        barrier(); // the previous chunk's scan is done with its shared memory
        uint first = chunk + gl_LocalInvocationIndex * SCAN_ITEMS_PER_THREAD;
        uint counts[SCAN_ITEMS_PER_THREAD];
        uint sum = 0u;
        [[unroll]] for (uint i = 0u; i < SCAN_ITEMS_PER_THREAD; ++i) {
            counts[i] = first + i < end ? tables[countEntry(pc.countTable, digit, first + i)] : 0u;
            sum += counts[i];
        }
        uint chunkTotal;
        uint running = carry + workgroupExclusiveScan(sum, chunkTotal);
        [[unroll]] for (uint i = 0u; i < SCAN_ITEMS_PER_THREAD; ++i) {
            if (first + i < end) tables[countEntry(pc.countTable, digit, first + i)] = running;
            running += counts[i];
        }
        carry += chunkTotal;
    }
    return carry;
}

// Range `range`'s tiles, all 16 digits at once, into s_carry (the range's totals). Needs a row of
// s_subgroupCounts per subgroup: a launch with more subgroups than MAX_SUBGROUPS (a driver that
// launches narrower subgroups than it promised) scans the digits one after another instead,
// slower but in bounds.
void scanRangeDigits(uint begin, uint end) {
    uint invocation = gl_LocalInvocationIndex;
    if (gl_NumSubgroups > MAX_SUBGROUPS) {
        for (uint digit = 0u; digit < kRadix; ++digit) {
            uint total = scanDigit(digit, begin, end);
            if (invocation == 0u) s_carry[digit] = total;
        }
        return;
    }
    if (invocation < kRadix) s_carry[invocation] = 0u;
    // Tiles go to invocations in the order (subgroup, active lane), the order of the scans below.
    TileLayout place = tileLayout(1u);
    uint lane = place.lane, width = place.width;
    bool lastLane = lane + 1u == width;
    for (uint chunk = begin; chunk < end; chunk += gl_WorkGroupSize.x) {
        barrier(); // s_carry is set, and the previous chunk is done with s_subgroupCounts
        uint tile = chunk + tileSlot(place, 0u);
        bool mine = tile < end;
        uvec4 counts[4];
        [[unroll]] for (uint q = 0u; q < 4u; ++q) {
            counts[q] = mine ? tableQuads[countQuadEntry(pc.countTable, q, tile)] : uvec4(0u);
        }
        uvec4 before[4];
        [[unroll]] for (uint q = 0u; q < 4u; ++q) {
            uvec4 inclusive = subgroupInclusiveAdd(counts[q]);
            before[q] = inclusive - counts[q];
            if (lastLane) {
                [[unroll]] for (uint i = 0u; i < 4u; ++i) s_subgroupCounts[gl_SubgroupID * kRadix + 4u * q + i] = inclusive[i];
            }
        }
        barrier();
        // Subgroup g scans digits g, g + gl_NumSubgroups, ... over the subgroups, in turns of
        // `width` subgroups, after the range's tiles of earlier chunks.
        for (uint digit = gl_SubgroupID; digit < kRadix; digit += gl_NumSubgroups) {
            uint carry = s_carry[digit];
            for (uint base = 0u; base < gl_NumSubgroups; base += width) {
                uint g = base + lane;
                uint count = g < gl_NumSubgroups ? s_subgroupCounts[g * kRadix + digit] : 0u;
                uint inclusive = subgroupInclusiveAdd(count);
                if (g < gl_NumSubgroups) s_subgroupCounts[g * kRadix + digit] = carry + inclusive - count;
                carry += subgroupAdd(count);
            }
            if (lane == 0u) s_carry[digit] = carry;
        }
        barrier();
        if (mine) {
            [[unroll]] for (uint q = 0u; q < 4u; ++q) {
                uvec4 start = uvec4(s_subgroupCounts[gl_SubgroupID * kRadix + 4u * q],
                                    s_subgroupCounts[gl_SubgroupID * kRadix + 4u * q + 1u],
                                    s_subgroupCounts[gl_SubgroupID * kRadix + 4u * q + 2u],
                                    s_subgroupCounts[gl_SubgroupID * kRadix + 4u * q + 3u]);
                tableQuads[countQuadEntry(pc.countTable, q, tile)] = start + before[q];
            }
        }
    }
}

// The last workgroup's part: the ranges' totals become each digit's exclusive prefix over the
// ranges, and the pass's digit totals are written; the ticket is left 0 for the next pass's scan
// step. The (digit, range) entries are scanned in digit-major order, an entry per invocation per
// round (two rounds of loads for 64 ranges in a workgroup of 512), and each digit's row
// start, its entry for range 0 (the counts of all smaller digits), is taken off its entries.
void scanRangeTotals(uint ranges) {
    uint entries = kRadix * ranges;
    uint slot = tileSlot(tileLayout(1u), 0u); // (subgroup, active lane): workgroupExclusiveScan's order
    uint carry = 0u;
    for (uint base = 0u; base < entries; base += gl_WorkGroupSize.x) {
        uint e = base + slot;
        uint word = rangeTotalsEntry(e % ranges, e / ranges);
        uint count = e < entries ? rangeWords[word] : 0u;
        uint roundTotal;
        uint before = carry + workgroupExclusiveScan(count, roundTotal);
        carry += roundTotal;
        if (e < entries && e % ranges == 0u) s_carry[e / ranges] = before;
        barrier(); // the row starts are written, and the scan's shared words are free again
        if (e < entries) rangeWords[word] = before - s_carry[e / ranges];
    }
    uint invocation = gl_LocalInvocationIndex;
    if (invocation < kRadix) {
        uint next = invocation + 1u < kRadix ? s_carry[invocation + 1u] : carry;
        tables[totalsEntry(pc.pass, invocation)] = next - s_carry[invocation];
    }
    if (invocation == 0u) tables[kInfoScanTicket] = 0u; // for the next pass's scan step
}

// Several ranges: range `range`, every digit.
void scanRange(uint range, uint tiles) {
    uint rangeTiles = scanRangeTiles(tiles);
    uint begin = range * rangeTiles;
    uint end = min(begin + rangeTiles, tiles);
    scanRangeDigits(begin, end);
    uint invocation = gl_LocalInvocationIndex;
    barrier();
    uvec2 rangeBits = rangeVarying(begin, end); // (the deciding step's: they go out with the totals)
    // The last workgroup to finish (the ticket's last value: nobody waits for anybody) turns the
    // ranges' totals into exclusive prefixes over the ranges and writes the pass's digit totals,
    // so that a reorder reads its tile's start in three words. One invocation publishes the
    // range's totals and then takes the ticket, a memory barrier between, so that whoever draws
    // the last ticket sees every range's totals. The barriers stand in uniform control flow:
    // MoltenVK before MSL 3.2 makes each one a threadgroup barrier, which one invocation alone
    // would never pass. The second makes invocation 0's acquire of the ticket the other
    // invocations' too, through barrier().
    if (invocation == 0u) {
        for (uint digit = 0u; digit < kRadix; ++digit) rangeWords[rangeTotalsEntry(range, digit)] = s_carry[digit];
        publishRangeVarying(range, rangeBits);
    }
    memoryBarrierBuffer();
    if (invocation == 0u) s_ticket = atomicAdd(tables[kInfoScanTicket], 1u);
    memoryBarrierBuffer();
    barrier();
    uint ranges = scanRanges(tiles);
    if (s_ticket + 1u != ranges) return;
    memoryBarrierBuffer();
    scanRangeTotals(ranges);
    decideOverRanges(ranges);
}

void main() {
    if (scanLeftOut()) return;
    uint tiles = tileCount();
    if (scanRanges(tiles) == 1u) {
        uint total = scanDigit(gl_WorkGroupID.x, 0u, tiles);
        if (gl_LocalInvocationIndex == 0u) tables[totalsEntry(pc.pass, gl_WorkGroupID.x)] = total;
        decideOverTiles(tiles);
    } else {
        scanRange(gl_WorkGroupID.x, tiles);
    }
}
