// SPDX-License-Identifier: MIT
// vksort GLSL library: a ranked tile, read back from shared memory in sorted order, written to its
// places in the output. Included after rank.glsl by the reorder.
//
// After exchangeKeys, invocations hold the tile's keys in sorted order (keys[j] is the key at
// sorted slot tileSlot(place, j)), so consecutive invocations hold consecutive keys of one digit
// and their writes land in one run per digit and coalesce, where writes straight from the input
// slots would scatter over up to 16 runs per subgroup.

// Global position minus position in the sorted tile of each digit's run: slot + offset is the
// destination. The kernel fills it once it knows where its tile's digits go.
shared uint s_digitOffset[kRadix];

// Where the key at sorted slot `slot` of this tile goes.
uint destinationOf(Key key, uint slot, DigitMap map) {
    return s_digitOffset[digitOf(key, map)] + slot;
}

// The keys (in sort order) to their places, mapped back to the caller's bit patterns with `back`
// (the last pass: common.glsl); `keys` itself stays in sort order for scatterValues.
void scatterKeys(Key keys[KEYS_PER_THREAD], uint valid, TileLayout place, DigitMap map, bool back) {
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) keysOut[destinationOf(keys[j], slot, map)] = back ? callerKey(keys[j], map) : keys[j];
    }
}

// Values load after the ranking, which keeps the registers for itself: with EARLY_VALUES before
// the keys' exchange (the reorder calls loadValues then), so that the loads' latency hides behind
// the keys' exchange and scatter, at the cost of live registers; otherwise once the keys are
// written. The tuning row's, per format.
layout(constant_id = kSpecEarlyValues) const bool EARLY_VALUES = false;

// The values follow their keys: loaded now unless EARLY_VALUES, in input order, exchanged as the
// keys were, and written where their keys went (recomputed from the sorted keys rather than kept
// in registers). Nothing without values.
void scatterValues(Key keys[KEYS_PER_THREAD], Value values[KEYS_PER_THREAD], uint tileBase, uint valid,
                   TileLayout place, DigitMap map) {
    if (VALUE_WORDS == 0u) return;
    if (!EARLY_VALUES) loadValues(values, tileBase, valid, place);
    exchangeValues(values, place, false);
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            storeValue(destinationOf(keys[j], slot, map), values[j]);
        }
        return;
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) storeValue(destinationOf(keys[j], slot, map), values[j]);
    }
}
