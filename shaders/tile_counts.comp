// SPDX-License-Identifier: MIT
#version 450
// The first step of every multi-tile sort and of every indirect sort: how many keys of each digit value of the first pass each tile
// holds (later passes' counts are made by the reorder before them). In an indirect sort it also
// reads the count and launches the later steps (launch.glsl). Writes counts table
// pc.countTable, and zeroes this tile's entries of pc.zeroCountTable, which the first reorder adds
// the second pass's counts into; also gathers the tile's varying bits (passes.glsl).
//
// Each invocation counts its keys in registers: sixteen 4-bit counters in two words (a shift and an
// add per key: the step is otherwise bound by the counting, not the reads, for 32-bit keys), moved
// every 15 keys into sixteen 8-bit counters packed into one uvec4 (keys per thread stay below 256,
// which the host checks). Spread to 16-bit fields, subgroupAdd
// sums them across the subgroup (no field can carry: a subgroup sees at most 128 lanes * 255
// keys < 65536), and one lane per subgroup adds the totals into shared memory. Counting needs no
// order, only that every key of the tile is seen once, so the loads are striped across the
// workgroup and, for whole tiles, 16 bytes wide and all issued before the first is used: the step
// is a pure read of the keys and must run at read bandwidth.

#include "common.glsl"
#include "tile.glsl"
#include "passes.glsl"
#include "launch.glsl"

layout(set = 0, binding = kBindingKeysIn, std430) restrict readonly buffer KeysInVectors { uvec4 keysInVectors[]; };

shared uint s_tileCounts[kRadix];

// 4-bit counter of digit d: bits 4 (d & 7) of word d >> 3. Holds 15 keys.
void countDigit(uint digit, inout uvec2 nibbles) {
    uint one = 1u << ((digit & 7u) * 4u);
    nibbles += digit < 8u ? uvec2(one, 0u) : uvec2(0u, one);
}

// Adds the 4-bit counters into the 8-bit ones (digit d: 8 bits at (d & 3) * 8 of word d >> 2) and
// clears them: each 16 bits of 4-bit fields spread to a word of 8-bit fields.
void spillNibbles(inout uvec2 nibbles, inout uvec4 counters) {
    uvec4 w = uvec4(nibbles.x & 0xFFFFu, nibbles.x >> 16u, nibbles.y & 0xFFFFu, nibbles.y >> 16u);
    w = (w | (w << 8u)) & 0x00FF00FFu;
    counters += (w | (w << 4u)) & 0x0F0F0F0Fu;
    nibbles = uvec2(0u);
}
const uint kNibbleKeys = 15u; // keys a 4-bit counter holds

// Rounded up: with fewer keys per thread than a vector holds the vector path is never taken, but
// its array must still have a length of at least 1 to be valid SPIR-V once specialized.
const uint VECTORS_PER_THREAD = (KEYS_PER_THREAD + KEYS_PER_VECTOR - 1u) / KEYS_PER_VECTOR;

void main() {
    uint tile = flatWorkgroupIndex();
    SortSize size = sortSize(tile == 0u && gl_LocalInvocationIndex == 0u);
    if (tile >= size.tiles) return;
    TileSpan span = tileSpan(tile, size.tiles, size.count);
    DigitMap map = digitMap(pc.shift, pc.endBit);

    if (gl_LocalInvocationIndex < kRadix) s_tileCounts[gl_LocalInvocationIndex] = 0u;
    beginTileVarying();
    OrderedKey reference = varyingReference(map);
    // The first scan step's ticket; each scan step leaves it 0 for the next.
    if (tile == 0u && gl_LocalInvocationIndex == 0u) tables[kInfoScanTicket] = 0u;

    uvec4 counters = uvec4(0u);
    uvec2 nibbles = uvec2(0u);
    OrderedKey differs = OrderedKey(0u);
    // (A segment's tiles start wherever the segment does: whole ones take vectors where aligned.)
    if (KEYS_PER_THREAD % KEYS_PER_VECTOR == 0u && span.valid == TILE_SIZE &&
        (!SEGMENTED || span.base % KEYS_PER_VECTOR == 0u)) {
        uvec4 vectors[VECTORS_PER_THREAD];
        uint first = span.base / KEYS_PER_VECTOR + gl_LocalInvocationIndex;
        [[unroll]] for (uint i = 0u; i < VECTORS_PER_THREAD; ++i) {
            vectors[i] = keysInVectors[first + i * gl_WorkGroupSize.x];
        }
        [[unroll]] for (uint i = 0u; i < VECTORS_PER_THREAD; ++i) {
            [[unroll]] for (uint k = 0u; k < KEYS_PER_VECTOR; ++k) {
                OrderedKey ordered = orderedKey(vectorKey(vectors[i], k), map);
                noteVarying(differs, ordered, reference);
                countDigit(digitOf(ordered, map), nibbles);
                if ((i * KEYS_PER_VECTOR + k) % kNibbleKeys == kNibbleKeys - 1u) spillNibbles(nibbles, counters);
            }
        }
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = j * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
            if (slot < span.valid) {
                OrderedKey ordered = orderedKey(keysIn[span.base + slot], map);
                noteVarying(differs, ordered, reference);
                countDigit(digitOf(ordered, map), nibbles);
            }
            if (j % kNibbleKeys == kNibbleKeys - 1u) spillNibbles(nibbles, counters);
        }
    }
    spillNibbles(nibbles, counters);
    barrier(); // s_tileCounts and the varying bits are zeroed
    // even[w] holds digits 4w and 4w + 2, odd[w] digits 4w + 1 and 4w + 3, in 16-bit fields.
    uvec4 even = subgroupAdd(counters & 0x00FF00FFu);
    uvec4 odd = subgroupAdd((counters >> 8u) & 0x00FF00FFu);
    addTileVarying(differs);
    if (subgroupElect()) {
        [[unroll]] for (uint w = 0u; w < 4u; ++w) {
            uint fields[4] = {even[w] & 0xFFFFu, odd[w] & 0xFFFFu, even[w] >> 16u, odd[w] >> 16u};
            [[unroll]] for (uint f = 0u; f < 4u; ++f) {
                if (fields[f] != 0u) atomicAdd(s_tileCounts[4u * w + f], fields[f]);
            }
        }
    }
    barrier();
    if (gl_LocalInvocationIndex < kRadix) {
        uint digit = gl_LocalInvocationIndex;
        tables[countEntry(pc.countTable, digit, tile)] = s_tileCounts[digit];
        tables[countEntry(pc.zeroCountTable, digit, tile)] = 0u;
        publishTileVarying(tile, digit);
    }
}
