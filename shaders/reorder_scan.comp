#version 450
// One digit pass of the scan method (VKSORT_OFFSET_METHOD_SCAN), after the pass's scan step: move
// every key (and its value) to its place for this digit. reorder.comp is the look-back method's.
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
// (kFlagNextCounts), so only the first pass needs the tile-counts step: later passes read each key
// once instead of twice. See the counts tables' rotation in vksort_config.h.

#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"

// Global position minus local position of each digit's run: slot + offset = destination.
shared uint s_digitOffset[kRadix];
// Per digit: the total over all tiles, and the count in tiles before this one.
shared uint s_digitTotal[kRadix];
shared uint s_tilePrefix[kRadix];
// Next pass's counts of this tile's keys, by (digit of this pass, which of the two destination
// tiles its run touches, next digit).
shared uint s_nextCounts[kNextCountSlots];
shared uint s_firstDestinationTile[kRadix];

bool inlineScan() {
    return (pc.flags & kFlagIndirect) != 0u ? tables[kInfoInlineScan] != 0u : (pc.flags & kFlagInlineScan) != 0u;
}

void main() {
    uint tile = flatWorkgroupIndex();
    uint tiles = tileCount();
    if (tile >= tiles) return;
    uint tileBase = tile * TILE_SIZE;
    uint valid = min(TILE_SIZE, elementCount() - tileBase);
    bool countNext = (pc.flags & kFlagNextCounts) != 0u;
    TileLayout place = tileLayout(KEYS_PER_THREAD);

    // The tile's keys, all loads in flight at once (whole tiles load without guards). Their
    // digits are taken only after the loads of the counts below are issued too.
    Key keys[KEYS_PER_THREAD];
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = keysIn[tileBase + tileSlot(place, j)];
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            keys[j] = slot < valid ? keysIn[tileBase + slot] : Key(0u);
        }
    }

    // Where this tile's digits go. With the scan's results (fetched first so that their latency
    // hides behind the ranking), or summed here straight from the counts when tiles are few:
    // digit d is summed by every (gl_WorkGroupSize.x / 16)-th invocation, striding over tiles,
    // eight loads in flight at a time.
    uint invocation = gl_LocalInvocationIndex;
    if (inlineScan()) {
        if (invocation < kRadix) {
            s_digitTotal[invocation] = 0u;
            s_tilePrefix[invocation] = 0u;
        }
        barrier();
        uint digit = invocation % kRadix, lanes = gl_WorkGroupSize.x / kRadix;
        uint all = 0u, before = 0u;
        for (uint first = invocation / kRadix; first < tiles; first += 8u * lanes) {
            uint c[8];
            [[unroll]] for (uint k = 0u; k < 8u; ++k) {
                uint t = first + k * lanes;
                c[k] = t < tiles ? tables[countEntry(pc.countTable, digit, t)] : 0u;
            }
            [[unroll]] for (uint k = 0u; k < 8u; ++k) {
                all += c[k];
                before += first + k * lanes < tile ? c[k] : 0u;
            }
        }
        atomicAdd(s_digitTotal[digit], all);
        atomicAdd(s_tilePrefix[digit], before);
    } else if (invocation < kRadix) {
        s_digitTotal[invocation] = tables[totalsEntry(pc.pass, invocation)];
        s_tilePrefix[invocation] = tables[countEntry(pc.countTable, invocation, tile)];
    }
    if (invocation < kRadix) {
        // Zero this tile's entries of the table the pass after next will add its counts into;
        // their last reader was the previous pass.
        tables[countEntry(pc.zeroCountTable, invocation, tile)] = 0u;
    }
    for (uint i = invocation; i < kNextCountSlots; i += gl_WorkGroupSize.x) s_nextCounts[i] = 0u;

    // Slots past the end of the input get the largest digit: they are last in input order, so
    // the stable rank puts them after every real key, at sorted slots >= valid, never written.
    DigitMap map = digitMap(pc.shift, pc.endBit);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        g_digitRank[j] = (tileSlot(place, j) < valid ? digitOf(keys[j], map) : map.mask) << 16u;
    }

    rankTile(); // (its barriers also publish the shared arrays written above)

    if (invocation < kRadix) {
        uint digit = invocation;
        uint global = s_tilePrefix[digit];
        [[unroll]] for (uint d = 0u; d < kRadix; ++d) global += d < digit ? s_digitTotal[d] : 0u;
        s_digitOffset[digit] = global - localDigitStart(digit);
        s_firstDestinationTile[digit] = global / TILE_SIZE;
    }
    // (The barrier inside exchangeWords publishes s_digitOffset before it is read below.)

#if VKSORT_KEY_WORDS == 1
    exchangeWords(keys, place, VKSORT_VALUE_WORDS > 0);
#else
    uint low[KEYS_PER_THREAD], high[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        low[j] = keys[j].x;
        high[j] = keys[j].y;
    }
    exchangeWords(low, place, true);
    exchangeWords(high, place, VKSORT_VALUE_WORDS > 0);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = uvec2(low[j], high[j]);
#endif

    // keys[j] is now the key at sorted slot tileSlot(place, j).
    DigitMap next = digitMap(min(pc.shift + kDigitBits, pc.endBit - 1u), pc.endBit);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) {
            uint digit = digitOf(keys[j], map);
            uint destination = s_digitOffset[digit] + slot;
            keysOut[destination] = keys[j];
            if (countNext) {
                uint which = destination / TILE_SIZE - s_firstDestinationTile[digit];
                atomicAdd(s_nextCounts[(digit * 2u + which) * kRadix + digitOf(keys[j], next)], 1u);
            }
        }
    }

#if VKSORT_VALUE_WORDS > 0
    // Values are loaded only now, in input order, to keep registers free during the ranking; their
    // destinations are recomputed from the sorted keys rather than kept in registers.
    uint words[KEYS_PER_THREAD];
    bool index = (pc.flags & kFlagIndexValues) != 0u;
#if VKSORT_VALUE_WORDS == 1
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        words[j] = slot < valid ? (index ? tileBase + slot : valuesIn[tileBase + slot]) : 0u;
    }
    exchangeWords(words, place, false);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) valuesOut[s_digitOffset[digitOf(keys[j], map)] + slot] = words[j];
    }
#else
    uint highWords[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        uvec2 value = slot < valid ? valuesIn[tileBase + slot] : uvec2(0u);
        words[j] = value.x;
        highWords[j] = value.y;
    }
    exchangeWords(words, place, true);
    exchangeWords(highWords, place, false);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) valuesOut[s_digitOffset[digitOf(keys[j], map)] + slot] = uvec2(words[j], highWords[j]);
    }
#endif
#endif

    if (countNext) {
        barrier();
        for (uint i = invocation; i < kNextCountSlots; i += gl_WorkGroupSize.x) {
            uint n = s_nextCounts[i];
            if (n != 0u) {
                uint digit = i / (2u * kRadix);
                uint destinationTile = s_firstDestinationTile[digit] + (i / kRadix) % 2u;
                atomicAdd(tables[countEntry(pc.nextCountTable, i % kRadix, destinationTile)], n);
            }
        }
    }
}
