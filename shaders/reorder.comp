#version 450
// Pass 3 of 3: move every key (and its value) to its place for this digit.
//
// The workgroup loads its tile, ranks it stably by digit in shared memory (rank.glsl), and reads
// it back in sorted order, so that consecutive invocations hold consecutive keys of the same
// digit: their global writes land in one run per digit and coalesce. A key's destination is
//   (keys of smaller digits, all tiles) + (keys of its digit in earlier tiles) + (its rank
//   among keys of its digit in this tile),
// the first two from the scan, the last from the local sort.

#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"

// Global position minus local position of each digit's run: slot + offset = destination.
shared uint s_digitOffset[kRadix];

void main() {
    if (!launchIsSupported()) return;
    uint tile = flatWorkgroupIndex();
    if (tile >= tileCount()) return;
    uint tileBase = tile * TILE_SIZE;
    uint valid = min(TILE_SIZE, elementCount() - tileBase);
    TileLayout place = tileLayout(KEYS_PER_THREAD);

    // Slots past the end of the input get the largest digit: they are last in input order, so
    // the stable rank puts them after every real key, at sorted slots >= valid, never written.
    // Whole tiles (all but the last) load without guards, so every load is in flight at once.
    DigitMap map = digitMap(pc.shift, pc.endBit);
    Key keys[KEYS_PER_THREAD];
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = keysIn[tileBase + tileSlot(place, j)];
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) g_digit[j] = digitOf(keys[j], map);
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            keys[j] = slot < valid ? keysIn[tileBase + slot] : Key(0u);
            g_digit[j] = slot < valid ? digitOf(keys[j], map) : map.mask;
        }
    }

    rankTile();

    if (gl_LocalInvocationIndex < kRadix) {
        uint digit = gl_LocalInvocationIndex;
        uint global = tables[kCountsOffset + digit * pc.rowStride + tile];
        for (uint d = 0u; d < digit; ++d) global += tables[kTotalsOffset + d];
        s_digitOffset[digit] = global - localDigitStart(digit);
    }
    // (exchangeWords begins with a barrier-free scatter and ends with barriers, which also
    // publish s_digitOffset before it is read below.)

#if VKSORT_KEY_WORDS == 1
    exchangeWords(keys, place);
#else
    uint low[KEYS_PER_THREAD], high[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) { low[j] = keys[j].x; high[j] = keys[j].y; }
    exchangeWords(low, place);
    exchangeWords(high, place);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = uvec2(low[j], high[j]);
#endif

    uint destination[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        destination[j] = s_digitOffset[digitOf(keys[j], map)] + slot;
        if (slot < valid) keysOut[destination[j]] = keys[j];
    }

#if VKSORT_VALUE_WORDS > 0
    // Values are loaded only now, in input order, to keep registers free during the ranking.
    uint words[KEYS_PER_THREAD];
    bool index = (pc.flags & kFlagIndexValues) != 0u;
#if VKSORT_VALUE_WORDS == 1
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        words[j] = slot < valid ? (index ? tileBase + slot : valuesIn[tileBase + slot]) : 0u;
    }
    exchangeWords(words, place);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        if (tileSlot(place, j) < valid) valuesOut[destination[j]] = words[j];
    }
#else
    uint highWords[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        uvec2 value = slot < valid ? valuesIn[tileBase + slot] : uvec2(0u);
        words[j] = value.x;
        highWords[j] = value.y;
    }
    exchangeWords(words, place);
    exchangeWords(highWords, place);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        if (tileSlot(place, j) < valid) valuesOut[destination[j]] = uvec2(words[j], highWords[j]);
    }
#endif
#endif
}
