#version 450
// Before the first pass: how many keys of each digit value the input holds, for every pass at
// once (the digit totals do not depend on the order the keys are in), so each reorder knows where
// every digit's run starts. Each workgroup counts pc.histogramTiles consecutive tiles and adds its
// counts into the totals; it also zeroes those tiles' entries of the first pass's status table.
//
// Two consecutive passes' digits form one byte of the sorted bits, so a key costs one shared
// atomic per byte (four for 32-bit keys) instead of eight digit updates. A subgroup whose lanes all
// hold the same byte adds once: bytes that are equal across the input (the high bytes of small
// integers, of depths in a narrow range) would otherwise serialize on one counter.
// Loads are 16 bytes wide and several are in flight per invocation.

#include "common.glsl"
#include "tile.glsl"

layout(set = 0, binding = kBindingKeysIn, std430) restrict readonly buffer KeysInVectors { uvec4 keysInVectors[]; };

// Counts per byte of the sorted bits: [byte * 256 + value].
shared uint s_byteCounts[kMaxPasses / 2u * kByteValues];

const uint VECTORS_IN_FLIGHT = 4u;
const uint ROUND_KEYS = gl_WorkGroupSize.x * VECTORS_IN_FLIGHT * KEYS_PER_VECTOR;

void countKey(Key key, DigitMap map, uint bytes) {
    uvec2 bits = sortedBits(key, map, pc.endBit);
    [[unroll]] for (uint b = 0u; b < 4u * VKSORT_KEY_WORDS; ++b) {
        if (b < bytes) {
            uint entry = b * kByteValues + bitfieldExtract(b < 4u ? bits.x : bits.y, int((b % 4u) * 8u), 8);
            // A subgroup whose lanes all hold the same byte adds once; otherwise each lane adds
            // its own (checking lane by lane for equal neighbours costs more than it saves).
            uvec4 same = subgroupBallot(entry == subgroupBroadcastFirst(entry));
            if (same == subgroupBallot(true)) {
                if (subgroupElect()) atomicAdd(s_byteCounts[entry], subgroupBallotBitCount(same));
            } else {
                atomicAdd(s_byteCounts[entry], 1u);
            }
        }
    }
}

void main() {
    uint tiles = tileCount();
    uint firstTile = flatWorkgroupIndex() * pc.histogramTiles;
    if (firstTile >= tiles) return;
    uint endTile = min(firstTile + pc.histogramTiles, tiles);
    uint passes = (pc.endBit - pc.shift + kDigitBits - 1u) / kDigitBits;
    uint bytes = (passes + 1u) / 2u;
    uint invocation = gl_LocalInvocationIndex;
    for (uint i = invocation; i < bytes * kByteValues; i += gl_WorkGroupSize.x) s_byteCounts[i] = 0u;
    for (uint i = invocation; i < (endTile - firstTile) * kRadix; i += gl_WorkGroupSize.x) {
        tables[statusEntry(pc.statusTable, firstTile + i / kRadix, i % kRadix)] = kStatusNotReady;
    }
    barrier();

    DigitMap map = digitMap(pc.shift, pc.endBit);
    uint begin = firstTile * TILE_SIZE;
    uint end = min(endTile * TILE_SIZE, elementCount());
    // Whole rounds of VECTORS_IN_FLIGHT vectors per invocation, then the rest key by key.
    uint wholeEnd = begin + (end - begin) / ROUND_KEYS * ROUND_KEYS;
    for (uint base = begin; base < wholeEnd; base += ROUND_KEYS) {
        uvec4 vectors[VECTORS_IN_FLIGHT];
        [[unroll]] for (uint i = 0u; i < VECTORS_IN_FLIGHT; ++i) {
            vectors[i] = keysInVectors[base / KEYS_PER_VECTOR + i * gl_WorkGroupSize.x + invocation];
        }
        [[unroll]] for (uint i = 0u; i < VECTORS_IN_FLIGHT; ++i) {
            [[unroll]] for (uint k = 0u; k < KEYS_PER_VECTOR; ++k) countKey(vectorKey(vectors[i], k), map, bytes);
        }
    }
    for (uint i = wholeEnd + invocation; i < end; i += gl_WorkGroupSize.x) countKey(keysIn[i], map, bytes);
    barrier();

    // A pass's digit is the low (even pass) or high (odd pass) half of its byte.
    for (uint i = invocation; i < passes * kRadix; i += gl_WorkGroupSize.x) {
        uint pass = i / kRadix, digit = i % kRadix;
        uint row = (pass / 2u) * kByteValues;
        uint n = 0u;
        [[unroll]] for (uint other = 0u; other < kRadix; ++other) {
            n += s_byteCounts[row + (pass % 2u == 0u ? other * kRadix + digit : digit * kRadix + other)];
        }
        if (n != 0u) atomicAdd(tables[kTotalsOffset + i], n);
    }
}
