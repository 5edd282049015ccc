#version 450
// The whole sort in one workgroup, for counts that fit one tile: every pass ranks and exchanges
// the keys (and values) in registers and shared memory, and only the result goes back to memory.
// One dispatch instead of a histogram and a reorder per pass, so small counts cost microseconds.
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

#if VKSORT_KEY_WORDS == 1
    uint low[KEYS_PER_THREAD];
#else
    uint low[KEYS_PER_THREAD], high[KEYS_PER_THREAD];
#endif
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        Key key = slot < count ? keysIn[slot] : Key(0u);
#if VKSORT_KEY_WORDS == 1
        low[j] = key;
#else
        low[j] = key.x;
        high[j] = key.y;
#endif
    }
#if VKSORT_VALUE_WORDS > 0
    uint words[KEYS_PER_THREAD];
    bool index = (pc.flags & kFlagIndexValues) != 0u;
#if VKSORT_VALUE_WORDS == 1
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        words[j] = slot < count ? (index ? slot : valuesIn[slot]) : 0u;
    }
#else
    uint highWords[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        uvec2 value = slot < count ? valuesIn[slot] : uvec2(0u);
        words[j] = value.x;
        highWords[j] = value.y;
    }
#endif
#endif

    for (uint shift = pc.shift; shift < pc.endBit; shift += kDigitBits) {
        // Slots past the count keep the largest digit in every pass, so they stay at the end.
        DigitMap map = digitMap(shift, pc.endBit);
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
#if VKSORT_KEY_WORDS == 1
            Key key = low[j];
#else
            Key key = uvec2(low[j], high[j]);
#endif
            g_digitRank[j] = (tileSlot(place, j) < count ? digitOf(key, map) : map.mask) << 16u;
        }
        rankTile();
        exchangeWords(low, place, true);
#if VKSORT_KEY_WORDS == 2
        exchangeWords(high, place, true);
#endif
#if VKSORT_VALUE_WORDS > 0
        exchangeWords(words, place, true);
#endif
#if VKSORT_VALUE_WORDS == 2
        exchangeWords(highWords, place, true);
#endif
    }

    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < count) {
#if VKSORT_KEY_WORDS == 1
            keysOut[slot] = low[j];
#else
            keysOut[slot] = uvec2(low[j], high[j]);
#endif
#if VKSORT_VALUE_WORDS == 1
            valuesOut[slot] = words[j];
#elif VKSORT_VALUE_WORDS == 2
            valuesOut[slot] = uvec2(words[j], highWords[j]);
#endif
        }
    }
}
