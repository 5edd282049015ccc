// SPDX-License-Identifier: MIT
// vksort GLSL library: the geometry of one workgroup's tile of keys, as the host planned it
// (specialization constants: no shader may choose its own, or its tiles would disagree with the
// host's grids and row strides), and the tile's keys and values between memory and registers.
// Included after common.glsl by every pass but the scan.

layout(constant_id = kSpecKeysPerThread) const uint KEYS_PER_THREAD = 16;
#ifndef VKSORT_WHOLE_TILE_LOOPS
#define VKSORT_WHOLE_TILE_LOOPS 1
#endif
const uint TILE_SIZE = gl_WorkGroupSize.x * KEYS_PER_THREAD;
// Whether a loop that the single-workgroup sort keeps single takes its whole-tile copy (below).
#define VKSORT_WHOLE_TILE_COPY(valid) (VKSORT_WHOLE_TILE_LOOPS != 0 && (valid) == TILE_SIZE)

// The keys of the tile at `tileBase` in tile-slot order (tileSlot): keys[j] is slot
// tileSlot(place, j), and slots from `valid` on (past the input) hold Key(0u). All loads are
// issued before any is used.
//
// Here (in every kernel) and in the reorders' loadValues, setDigits, scatterKeysCountingNext and
// scatterValues, a whole tile (valid == TILE_SIZE: every tile but a partial last one) takes a copy
// of the per-key loop without the test against `valid`: the reorders are bound by instruction
// issue on the H100, and the tests cost about 3% at 2^24 keys (4% for u32:u32 pairs in loadValues
// alone). Copies make the binaries larger and may cost compile time when a sorter is created, so
// scatterKeys and the single-workgroup sort's loadValues and setDigits (VKSORT_WHOLE_TILE_LOOPS 0)
// keep one loop: with copies in every loop (c50cb8a), creating a sorter of every format from a cold
// cache took 36% longer on the H100 than with 8f80d32's kernels; loadValues' copy alone stayed
// within the spread (measured on the H100).
void loadKeys(out Key keys[KEYS_PER_THREAD], uint tileBase, uint valid, TileLayout place) {
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = keysIn[tileBase + tileSlot(place, j)];
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            keys[j] = slot < valid ? keysIn[tileBase + slot] : Key(0u);
        }
    }
}

// The loaded keys in sort order: mapped if this dispatch reads the caller's keys (common.glsl).
// Where the reorders call it is measured on the H100: after the loads of
// the tables, except with EARLY_VALUES, where it follows the keys' loads. The other way round
// they lost 2.3% (pairs) to 10% (u64 keys) at 2^24 keys on the H100.
void keysToSortOrder(inout Key keys[KEYS_PER_THREAD], DigitMap map) {
    if (mapsKeysIn(map)) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = orderedKey(keys[j], map);
    }
}

// The value of tile slot `slot` of the tile at `tileBase`, or with `index` (kFlagIndexValues: an
// argsort's first pass) the slot's input index; 0 without values (VALUE_WORDS == 0). A macro, and no
// test in the partial loop without values, so that loadValues compiles to the same SPIR-V as the
// measured kernels, whose loops each wrote this expression out (a function call renumbers it).
#if VKSORT_VALUE_WORDS == 1
#define VKSORT_VALUE_AT(tileBase, slot, index) ((index) ? (tileBase) + (slot) : valuesIn[(tileBase) + (slot)])
#elif VKSORT_VALUE_WORDS == 2
#define VKSORT_VALUE_AT(tileBase, slot, index) valuesIn[(tileBase) + (slot)]
#else
#define VKSORT_VALUE_AT(tileBase, slot, index) 0u
#endif

// The values of the same slots as loadKeys (0 from `valid` on). Without values it loads nothing.
void loadValues(out Value values[KEYS_PER_THREAD], uint tileBase, uint valid, TileLayout place) {
    bool index = (pc.flags & kFlagIndexValues) != 0u;
    if (VKSORT_WHOLE_TILE_COPY(valid)) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            values[j] = VKSORT_VALUE_AT(tileBase, slot, index);
        }
        return;
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
#if VKSORT_VALUE_WORDS == 0
        values[j] = 0u;
#else
        values[j] = slot < valid ? VKSORT_VALUE_AT(tileBase, slot, index) : Value(0u);
#endif
    }
}

// Writes a value to the output (nothing without values).
void storeValue(uint position, Value value) {
#if VKSORT_VALUE_WORDS > 0
    valuesOut[position] = value;
#endif
}
