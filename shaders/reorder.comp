// SPDX-License-Identifier: MIT
#version 450
// One digit pass, after the pass's scan step: move every key (and its value) to its place for
// this digit. The host records one reorder per pass; reorder r sorts the r-th pass that runs
// (passes.glsl), and returns early if fewer run.
//
// Workgroup i loads tile i, ranks it stably by digit in shared memory (rank.glsl), and reads
// it back in sorted order, so that consecutive invocations hold consecutive keys of the same
// digit: their global writes land in one run per digit and coalesce. A key's destination is
//   (keys of smaller digits, all tiles) + (keys of its digit in earlier tiles) + (its rank
//   among keys of its digit in this tile),
// the first two from the scan step (or, with few tiles, summed from the counts directly:
// kFlagInlineScan), the last from the local sort. No workgroup waits for another.
//
// Knowing every destination, the pass also counts the next pass's digits per destination tile
// (but the last pass), so only the first pass needs the tile-counts step: later passes read each
// key once instead of twice. See the counts tables' rotation in vksort_config.h.
//
// A segmented sort's segment_reorder (SEGMENTED) does the same within its tile's segment
// (tile.glsl): the first two terms count only the segment's keys and start at the segment's
// first key. From a scan step, which scans all tiles, they are differences of its prefixes at
// the segment's first tile, at this tile and after the segment's last tile.

#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "scatter.glsl"
#include "passes.glsl"

// Loads in flight per invocation in the inline scan (the tuning row's).
layout(constant_id = kSpecInlineScanLoads) const uint INLINE_SCAN_LOADS = 4;

// The counts tables four words at a time, for the inline scan (a tile's 16 counts are 64
// consecutive bytes, 16-byte aligned: vksort_config.h). Only read, and only words this dispatch
// does not write (the pass's own counts table), so it may alias `tables`.
layout(set = 0, binding = kBindingTables, std430) readonly buffer TableQuads { uvec4 tableQuads[]; };

// Per digit: the total over all tiles, and the count in tiles before this one.
shared uint s_digitTotal[kRadix];
shared uint s_tilePrefix[kRadix];
// Next pass's counts of this tile's keys, by (digit of this pass, which of the two destination
// tiles its run touches, next digit).
shared uint s_nextCounts[kNextCountSlots];
shared uint s_firstDestinationTile[kRadix];

// Whether each workgroup sums the counts of all `tiles` itself: the host's choice, or in an indirect
// sort the rule the tile counts applied to the tiles it launched (launch.glsl), found again from
// those tiles rather than loaded.
bool inlineScan(uint tiles) {
    return (pc.flags & kFlagIndirect) != 0u ? vksortInlineScan(tiles, pc.inlineScanMaxTiles) : (pc.flags & kFlagInlineScan) != 0u;
}

// Where this tile's digits go, into s_digitTotal and s_tilePrefix (over the tile's segment, which
// is every tile when not SEGMENTED): after a scan step, from the scanned prefixes; with few tiles
// (inlineScan), sums of the counts table made here. Also zeroes this
// tile's entries of the counts table that the pass after next adds into (their last reader was
// the previous pass) and the next pass's counts in shared memory. A deciding reorder with an
// inline scan also gathers every tile's varying bits (as it sums every tile's counts,
// each workgroup for itself: passes.glsl). Published by the next barrier.
// The count of `digit` in the tiles before `tile` (< tiles), once the scan step is done: the tile's
// prefix within its range and, past the first range, the range's prefix (see scan.comp).
uint scannedPrefix(uint digit, uint tile, uint tiles) {
    uint range = tile / scanRangeTiles(tiles);
    return (range == 0u ? 0u : tables[rangeTotalsEntry(range, digit)]) + tables[countEntry(pc.countTable, digit, tile)];
}

void fetchDigitStarts(uint tile, uint tiles, TileSpan span) {
    uint invocation = gl_LocalInvocationIndex;
    if (inlineScan(tiles)) {
        // Invocation i sums digits 4(i % 4) to 4(i % 4) + 3, one 16-byte load per tile, striding
        // over tiles by a quarter of the workgroup, INLINE_SCAN_LOADS loads in flight at a time:
        // every workgroup reads every tile's counts.
        if (invocation < kRadix) {
            s_digitTotal[invocation] = 0u;
            s_tilePrefix[invocation] = 0u;
        }
        beginDecision();
        barrier();
        gatherDecision(tiles);
        uint quad = invocation % 4u, lanes = gl_WorkGroupSize.x / 4u;
        uvec4 all = uvec4(0u), before = uvec4(0u);
        for (uint first = span.firstTile + invocation / 4u; first < span.endTile; first += INLINE_SCAN_LOADS * lanes) {
            uvec4 c[INLINE_SCAN_LOADS];
            [[unroll]] for (uint k = 0u; k < INLINE_SCAN_LOADS; ++k) {
                uint t = first + k * lanes;
                c[k] = t < span.endTile ? tableQuads[countQuadEntry(pc.countTable, quad, t)] : uvec4(0u);
            }
            [[unroll]] for (uint k = 0u; k < INLINE_SCAN_LOADS; ++k) {
                all += c[k];
                before += first + k * lanes < tile ? c[k] : uvec4(0u);
            }
        }
        [[unroll]] for (uint i = 0u; i < 4u; ++i) {
            atomicAdd(s_digitTotal[4u * quad + i], all[i]);
            atomicAdd(s_tilePrefix[4u * quad + i], before[i]);
        }
    } else if (invocation < kRadix) {
        uint digit = invocation;
        uint total = tables[totalsEntry(pc.pass, digit)];
        uint prefix = scannedPrefix(digit, tile, tiles);
        if (SEGMENTED) {
            uint first = scannedPrefix(digit, span.firstTile, tiles);
            total = (span.endTile < tiles ? scannedPrefix(digit, span.endTile, tiles) : total) - first;
            prefix -= first;
        }
        s_digitTotal[digit] = total;
        s_tilePrefix[digit] = prefix;
    }
    if (invocation < kRadix) tables[countEntry(pc.zeroCountTable, invocation, tile)] = 0u;
    for (uint i = invocation; i < kNextCountSlots; i += gl_WorkGroupSize.x) s_nextCounts[i] = 0u;
}

// s_digitOffset, and the first destination tile of each digit's run, from the digit starts and
// the ranked tile. Published by the next barrier.
void placeDigits(TileSpan span) {
    uint digit = gl_LocalInvocationIndex;
    if (digit < kRadix) {
        uint global = span.segmentBase + s_tilePrefix[digit];
        [[unroll]] for (uint d = 0u; d < kRadix; ++d) global += d < digit ? s_digitTotal[d] : 0u;
        s_digitOffset[digit] = global - localDigitStart(digit);
        s_firstDestinationTile[digit] = tileOfPosition(global, span);
    }
}

// One key of scatterKeysCountingNext.
void scatterKeyCountingNext(Key key, uint slot, DigitMap map, DigitMap next, TileSpan span) {
    uint digit = digitOf(key, map);
    uint destination = s_digitOffset[digit] + slot;
    keysOut[destination] = key;
    uint which = tileOfPosition(destination, span) - s_firstDestinationTile[digit];
    atomicAdd(s_nextCounts[(digit * 2u + which) * kRadix + digitOf(key, next)], 1u);
}

// scatterKeys, also counting the next pass's digits per destination tile in shared memory.
void scatterKeysCountingNext(Key keys[KEYS_PER_THREAD], uint valid, TileLayout place, DigitMap map, DigitMap next,
                             TileSpan span) {
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) scatterKeyCountingNext(keys[j], tileSlot(place, j), map, next, span);
        return;
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) scatterKeyCountingNext(keys[j], slot, map, next, span);
    }
}

// Adds this tile's next-pass counts into the next pass's counts table.
void publishNextCounts() {
    barrier();
    for (uint i = gl_LocalInvocationIndex; i < kNextCountSlots; i += gl_WorkGroupSize.x) {
        uint n = s_nextCounts[i];
        if (n != 0u) {
            uint digit = i / (2u * kRadix);
            uint destinationTile = s_firstDestinationTile[digit] + (i / kRadix) % 2u;
            atomicAdd(tables[countEntry(pc.nextCountTable, i % kRadix, destinationTile)], n);
        }
    }
}

void main() {
    uint tile = flatWorkgroupIndex();
    uint tiles = launchedTileCount();
    if (tile >= tiles) return;
    PassChoice pass = choosePass(inlineScan(tiles));
    if (!pass.runs) return;
    TileSpan span = tileSpan(tile, tiles, elementCount());
    uint tileBase = span.base;
    uint valid = span.valid;
    TileLayout place = tileLayout(KEYS_PER_THREAD);

    // The keys' loads first, then the counts' (their latency hides behind the ranking).
    DigitMap map = digitMap(pass.shift, pc.endBit);
    Key keys[KEYS_PER_THREAD];
    loadKeys(keys, tileBase, valid, place);
    if (EARLY_VALUES) keysToSortOrder(keys, map);
    fetchDigitStarts(tile, tiles, span);
    if (!EARLY_VALUES) keysToSortOrder(keys, map);
    setDigits(keys, valid, place, map);
    rankTile(false); // (its barriers also publish the shared words written above)
    decidePass(pass, tile);
    placeDigits(span);
    Value values[KEYS_PER_THREAD];
    if (EARLY_VALUES) loadValues(values, tileBase, valid, place);
    exchangeKeys(keys, place, VALUE_WORDS > 0u); // (its barrier publishes placeDigits' words)
    // The last pass that runs maps the keys back to the caller's bit patterns and counts nothing.
    if (!pass.last) scatterKeysCountingNext(keys, valid, place, map, digitMap(pass.nextShift, pc.endBit), span);
    else scatterKeys(keys, valid, place, map, mapsKeys(map));
    scatterValues(keys, values, tileBase, valid, place, map);
    if (!pass.last) publishNextCounts();
}
