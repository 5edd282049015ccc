#version 450
// Pass 1 of 3: how many keys of each digit value this workgroup's tile holds. Runs for the first
// pass of a sort only; each reorder counts the digits of the pass after it (see reorder.comp).
//
// Each invocation counts its keys in registers: sixteen 16-bit counters packed into two uvec4s.
// subgroupAdd sums the packed words across the subgroup (no field can carry: a subgroup sees at
// most 128 lanes * keys per thread < 65536 keys, which the host checks), and one lane per
// subgroup adds the totals into shared memory. The result goes to the counts table, digit-major,
// for the scan. Counting needs no order, only that every key of the tile is seen once, so the
// loads are striped across the workgroup and, for whole tiles, 16 bytes wide and all issued
// before the first is used: the pass is a pure read of the keys and must run at read bandwidth.

#include "common.glsl"
#include "tile.glsl"

layout(set = 0, binding = kBindingKeysIn, std430) restrict readonly buffer KeysInVectors { uvec4 keysInVectors[]; };

shared uint s_counts[kRadix];

// Counter of digit d: 16 bits at (d & 1) * 16 of word d >> 1; words 0-3 in low, 4-7 in high.
void countDigit(uint digit, inout uvec4 low, inout uvec4 high) {
    uint increment = 1u << ((digit & 1u) * 16u);
    uvec4 word = uvec4(digit >> 1u);
    low += uvec4(equal(word, uvec4(0u, 1u, 2u, 3u))) * increment;
    high += uvec4(equal(word, uvec4(4u, 5u, 6u, 7u))) * increment;
}

const uint KEYS_PER_VECTOR = 4u / VKSORT_KEY_WORDS;
const uint VECTORS_PER_THREAD = KEYS_PER_THREAD / KEYS_PER_VECTOR;

void main() {
    if (!launchIsSupported()) return;
    uint tile = flatWorkgroupIndex();
    if (tile >= tileCount()) return;
    uint count = elementCount();
    uint tileBase = tile * TILE_SIZE;
    DigitMap map = digitMap(pc.shift, pc.endBit);

    if (gl_LocalInvocationIndex < kRadix) s_counts[gl_LocalInvocationIndex] = 0u;

    uvec4 low = uvec4(0u), high = uvec4(0u);
    if (KEYS_PER_THREAD % KEYS_PER_VECTOR == 0u && tileBase + TILE_SIZE <= count) {
        uvec4 vectors[VECTORS_PER_THREAD];
        uint first = tileBase / KEYS_PER_VECTOR + gl_LocalInvocationIndex;
        [[unroll]] for (uint i = 0u; i < VECTORS_PER_THREAD; ++i) {
            vectors[i] = keysInVectors[first + i * gl_WorkGroupSize.x];
        }
        [[unroll]] for (uint i = 0u; i < VECTORS_PER_THREAD; ++i) {
#if VKSORT_KEY_WORDS == 1
            countDigit(digitOf(vectors[i].x, map), low, high);
            countDigit(digitOf(vectors[i].y, map), low, high);
            countDigit(digitOf(vectors[i].z, map), low, high);
            countDigit(digitOf(vectors[i].w, map), low, high);
#else
            countDigit(digitOf(vectors[i].xy, map), low, high);
            countDigit(digitOf(vectors[i].zw, map), low, high);
#endif
        }
    } else {
        uint valid = min(TILE_SIZE, count - tileBase);
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = j * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
            if (slot < valid) countDigit(digitOf(keysIn[tileBase + slot], map), low, high);
        }
    }
    barrier(); // s_counts is zeroed
    uvec4 sums[2] = {subgroupAdd(low), subgroupAdd(high)};
    if (subgroupElect()) {
        [[unroll]] for (uint w = 0u; w < kRadix / 2u; ++w) {
            uint sum = sums[w / 4u][w % 4u];
            if ((sum & 0xFFFFu) != 0u) atomicAdd(s_counts[2u * w], sum & 0xFFFFu);
            if ((sum >> 16u) != 0u) atomicAdd(s_counts[2u * w + 1u], sum >> 16u);
        }
    }
    barrier();
    if (gl_LocalInvocationIndex < kRadix) {
        uint digit = gl_LocalInvocationIndex;
        tables[countsEntry(pc.table, digit, tile)] = s_counts[digit];
        // The first reorder adds the second pass's counts into the next table.
        tables[countsEntry((pc.table + 1u) % kCountTables, digit, tile)] = 0u;
    }
}
