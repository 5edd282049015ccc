// SPDX-License-Identifier: MIT
#version 450
// The whole sort in one workgroup, for counts that fit one tile: every pass ranks and exchanges
// the keys (and values) in registers and shared memory, and only the result goes back to memory.
// One dispatch instead of a scan and a reorder per pass, so small counts cost microseconds.
//
// pc.shift is the first pass's lowest bit and pc.endBit the end of the sorted range; the output
// binding is wherever the multi-pass sort would leave its result (see src/program.cpp), which may
// be the input buffer itself: every key is read before any is written.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"

void main() {
    if (flatWorkgroupIndex() != 0u) return;
    uint count = min(elementCount(), TILE_SIZE);
    TileLayout place = tileLayout(KEYS_PER_THREAD);

    Key keys[KEYS_PER_THREAD];
    Value values[KEYS_PER_THREAD];
    DigitMap map = digitMap(pc.shift, pc.endBit);
    loadKeys(keys, 0u, count, place);
    keysToSortOrder(keys, map);
    loadValues(values, 0u, count, place);
    for (uint shift = pc.shift; shift < pc.endBit; shift += kDigitBits) {
        // Slots past the count keep the largest digit in every pass, so they stay at the end.
        setDigits(keys, count, place, digitMap(shift, pc.endBit));
        // (The keys' exchange below has a barrier after the ranking's last reads of the counters,
        // so the next pass's rankTile may write them, with one exchange buffer or two.)
        rankTile(true);
        exchangeKeys(keys, place, true);
        exchangeValues(values, place, true);
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < count) {
            keysOut[slot] = mapsKeysOut(map) ? callerKey(keys[j], map) : keys[j];
            storeValue(slot, values[j]);
        }
    }
}
