#version 450
// Before the first pass: how many keys of each digit value the input holds, for every pass at
// once (the digit totals do not depend on the order the keys are in), so each reorder knows where
// every digit's run starts. Each workgroup counts one tile and adds its counts into the totals.
// It also zeroes its tile's entries of the first pass's tile-status table.
//
// Per pass, each invocation counts its keys in registers: sixteen 8-bit counters packed into one
// uvec4 (keys per thread stay below 256, which the host checks). Spread to 16-bit fields,
// subgroupAdd sums them across the subgroup (no field can carry: a subgroup sees at most 128
// lanes * 255 keys < 65536), and one lane per subgroup adds the sums into shared memory. Counting
// needs no order, only that every key of the tile is seen once, so the loads are striped across
// the workgroup and, for whole tiles, 16 bytes wide and all issued before the first is used; the
// keys stay in registers while every pass's digits are counted.

#include "common.glsl"
#include "tile.glsl"

layout(set = 0, binding = kBindingKeysIn, std430) restrict readonly buffer KeysInVectors { uvec4 keysInVectors[]; };

shared uint s_tileHistogram[kMaxPasses * kRadix];

// Counter of digit d: 8 bits at (d & 3) * 8 of word d >> 2.
void countDigit(uint digit, inout uvec4 counters) {
    counters += uvec4(equal(uvec4(digit >> 2u), uvec4(0u, 1u, 2u, 3u))) << ((digit & 3u) * 8u);
}

const uint KEYS_PER_VECTOR = 4u / VKSORT_KEY_WORDS;
// Rounded up: with fewer keys per thread than a vector holds the vector path is never taken, but
// its array must still have a length of at least 1 to be valid SPIR-V once specialized.
const uint VECTORS_PER_THREAD = (KEYS_PER_THREAD + KEYS_PER_VECTOR - 1u) / KEYS_PER_VECTOR;

void main() {
    uint tile = flatWorkgroupIndex();
    if (tile >= tileCount()) return;
    uint count = elementCount();
    uint tileBase = tile * TILE_SIZE;
    uint passes = (pc.endBit - pc.shift + kDigitBits - 1u) / kDigitBits;
    for (uint i = gl_LocalInvocationIndex; i < passes * kRadix; i += gl_WorkGroupSize.x) s_tileHistogram[i] = 0u;
    if (gl_LocalInvocationIndex < kRadix) {
        tables[statusEntry(pc.statusTable, tile, gl_LocalInvocationIndex)] = kStatusNotReady;
    }

    // The keys of this invocation, in 16-byte vectors for whole tiles.
    bool vectorPath = KEYS_PER_THREAD % KEYS_PER_VECTOR == 0u && tileBase + TILE_SIZE <= count;
    uvec4 vectors[VECTORS_PER_THREAD];
    Key keys[KEYS_PER_THREAD];
    uint valid = min(TILE_SIZE, count - tileBase);
    if (vectorPath) {
        uint first = tileBase / KEYS_PER_VECTOR + gl_LocalInvocationIndex;
        [[unroll]] for (uint i = 0u; i < VECTORS_PER_THREAD; ++i) {
            vectors[i] = keysInVectors[first + i * gl_WorkGroupSize.x];
        }
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = j * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
            keys[j] = slot < valid ? keysIn[tileBase + slot] : Key(0u);
        }
    }
    barrier(); // s_tileHistogram is zeroed

    for (uint pass = 0u; pass < passes; ++pass) {
        DigitMap map = digitMap(pc.shift + pass * kDigitBits, pc.endBit);
        uvec4 counters = uvec4(0u);
        if (vectorPath) {
            [[unroll]] for (uint i = 0u; i < VECTORS_PER_THREAD; ++i) {
#if VKSORT_KEY_WORDS == 1
                countDigit(digitOf(vectors[i].x, map), counters);
                countDigit(digitOf(vectors[i].y, map), counters);
                countDigit(digitOf(vectors[i].z, map), counters);
                countDigit(digitOf(vectors[i].w, map), counters);
#else
                countDigit(digitOf(vectors[i].xy, map), counters);
                countDigit(digitOf(vectors[i].zw, map), counters);
#endif
            }
        } else {
            [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
                uint slot = j * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
                if (slot < valid) countDigit(digitOf(keys[j], map), counters);
            }
        }
        // even[w] holds digits 4w and 4w + 2, odd[w] digits 4w + 1 and 4w + 3, in 16-bit fields.
        uvec4 even = subgroupAdd(counters & 0x00FF00FFu);
        uvec4 odd = subgroupAdd((counters >> 8u) & 0x00FF00FFu);
        if (subgroupElect()) {
            [[unroll]] for (uint w = 0u; w < 4u; ++w) {
                uint fields[4] = {even[w] & 0xFFFFu, odd[w] & 0xFFFFu, even[w] >> 16u, odd[w] >> 16u};
                [[unroll]] for (uint f = 0u; f < 4u; ++f) {
                    if (fields[f] != 0u) atomicAdd(s_tileHistogram[pass * kRadix + 4u * w + f], fields[f]);
                }
            }
        }
    }
    barrier();
    for (uint i = gl_LocalInvocationIndex; i < passes * kRadix; i += gl_WorkGroupSize.x) {
        uint n = s_tileHistogram[i];
        if (n != 0u) atomicAdd(tables[kTotalsOffset + i], n);
    }
}
