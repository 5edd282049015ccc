// SPDX-License-Identifier: MIT
#version 450
// A sort of a few thousand keys by comparing every pair: a key's place is the number of
// keys that go ahead of it (smaller in the sorted bits, or equal and earlier, which keeps equal
// keys in input order), as the tiny segments find theirs (segment_tiny.comp) but over the whole
// array. Workgroup w places keys [w * WORKGROUP_KEYS, ...): its invocations split every chunk of the
// keys between them, part p of the chunk to invocations [p * WORKGROUP_KEYS, (p + 1) * WORKGROUP_KEYS),
// one key each, and add up their parts' counts. No workgroup waits for another and there are no
// passes: the comparisons grow with the square of the count, so the host takes this kernel only
// up to the tuning row's limit (src/program.cpp), where they cost less than the passes' dependent
// dispatches. An indirect sort takes it by its capacity: its tile counts launch both dispatches
// with a workgroup per WORKGROUP_KEYS keys of the count read (launch.glsl), and the kernel finds
// the count in the tables.
//
// The keys go to the other buffer of the ping-pong pair (the output binding, never the input):
// where the passes would leave the result in the caller's ranges, a second dispatch of this
// kernel (kFlagCopyBack) copies it back.

#include "common.glsl"
#include "tile.glsl"

// Keys each workgroup places: a divisor of the workgroup size (the host's).
layout(constant_id = kSpecCompareWorkgroupKeys) const uint WORKGROUP_KEYS = 32;
const uint PARTS = gl_WorkGroupSize.x / WORKGROUP_KEYS;

// A chunk of the keys as sorted bits, TILE_SIZE words (KEYS_PER_THREAD words per invocation, a
// multiple of 4): four 32-bit keys per vector, or two 64-bit keys (low word, high word).
const uint CHUNK_VECTORS = TILE_SIZE / 4u;
const uint CHUNK_KEYS = CHUNK_VECTORS * KEYS_PER_VECTOR;
shared uvec4 s_chunk[CHUNK_VECTORS];
// Per key of the workgroup: its place, summed over the parts (sized per invocation, so that the
// host's mirror needs only the workgroup: src/plan.cpp).
shared uint s_place[gl_WorkGroupSize.x];

layout(set = 0, binding = kBindingKeysIn, std430) restrict readonly buffer KeysInVectors { uvec4 keysInVectors[]; };

// Keys past the count: bits that no key's are above, so they never go ahead of one.
const uvec2 kNeverAhead = uvec2(0xFFFFFFFFu, KEY_WORDS == 2u ? 0xFFFFFFFFu : 0u);

uvec4 withKeyBits(uvec4 vector, uint k, uvec2 bits) {
    if (KEY_WORDS == 1u) {
        vector[k] = bits.x;
    } else {
        vector[2u * k] = bits.x;
        vector[2u * k + 1u] = bits.y;
    }
    return vector;
}

uvec2 keyBitsOf(uvec4 vector, uint k) {
    return KEY_WORDS == 1u ? uvec2(vector[k], 0u) : uvec2(vector[2u * k], vector[2u * k + 1u]);
}

// Loads keys [base, base + CHUNK_KEYS) of `count` into s_chunk as sorted bits. Every invocation
// calls it; the caller's barrier publishes it.
void loadChunk(uint base, uint count, DigitMap map) {
    uint first = base / KEYS_PER_VECTOR;
    uvec4 vectors[KEYS_PER_THREAD / 4u];
    // Whole vectors of keys in one load each, all issued before the first is used.
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD / 4u; ++i) {
        uint v = gl_LocalInvocationIndex + i * gl_WorkGroupSize.x;
        uint key = base + v * KEYS_PER_VECTOR;
        vectors[i] = key + KEYS_PER_VECTOR <= count ? keysInVectors[first + v] : uvec4(0u);
    }
    [[unroll]] for (uint i = 0u; i < KEYS_PER_THREAD / 4u; ++i) {
        uint v = gl_LocalInvocationIndex + i * gl_WorkGroupSize.x;
        uint key = base + v * KEYS_PER_VECTOR;
        uvec4 bits = uvec4(0u);
        [[unroll]] for (uint k = 0u; k < KEYS_PER_VECTOR; ++k) {
            uvec2 b = kNeverAhead;
            if (key + KEYS_PER_VECTOR <= count) b = sortedBits(vectorKey(vectors[i], k), map, pc.endBit);
            else if (key + k < count) b = sortedBits(keysIn[key + k], map, pc.endBit);
            bits = withKeyBits(bits, k, b);
        }
        s_chunk[v] = bits;
    }
}

// How many keys of vectors [first, end) of s_chunk go ahead of a key whose sorted bits are `mine`:
// smaller ones, and equal ones too where `earlier` (they all come before it in the input).
uint aheadIn(uint first, uint end, uvec2 mine, bool earlier) {
    uint ahead = 0u;
    for (uint v = first; v < end; ++v) {
        uvec4 vector = s_chunk[v];
        if (KEY_WORDS == 1u) {
            bvec4 goes = earlier ? lessThanEqual(vector, uvec4(mine.x)) : lessThan(vector, uvec4(mine.x));
            ahead += uint(goes.x) + uint(goes.y) + uint(goes.z) + uint(goes.w);
        } else {
            ahead += uint(goesAhead(vector.xy, mine, earlier)) + uint(goesAhead(vector.zw, mine, earlier));
        }
    }
    return ahead;
}

// The keys of this invocation's part of the chunk at `base` that go ahead of key `k`: those
// before it with equal ones, its own vector key by key, those after it without. The parts share
// the vectors that hold keys of the count.
uint aheadInPart(uint base, uint count, uint k, uvec2 mine) {
    uint held = vksortCeilDiv(min(count - base, CHUNK_KEYS), KEYS_PER_VECTOR);
    uint vectors = vksortCeilDiv(held, PARTS), part = gl_LocalInvocationIndex / WORKGROUP_KEYS;
    uint first = min(part * vectors, held), end = min(first + vectors, held);
    // The vectors of the part wholly before key k, and the one that holds it (end if none does).
    uint own = k < base ? 0u : min((k - base) / KEYS_PER_VECTOR, CHUNK_VECTORS);
    uint ahead = aheadIn(first, clamp(own, first, end), mine, true);
    if (own >= first && own < end) {
        uvec4 vector = s_chunk[own];
        [[unroll]] for (uint j = 0u; j < KEYS_PER_VECTOR; ++j) {
            ahead += uint(goesAhead(keyBitsOf(vector, j), mine, base + own * KEYS_PER_VECTOR + j < k));
        }
    }
    return ahead + aheadIn(clamp(own + 1u, first, end), end, mine, false);
}

// Copies keys and values [0, count) from the input to the output bindings, an invocation each.
// An indirect sort launches it as the sort, a workgroup per WORKGROUP_KEYS keys (launch.glsl):
// the workgroups past the count return at once.
void copyResult(uint count) {
    uint i = flatWorkgroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    if (i >= count) return;
    keysOut[i] = keysIn[i];
    storeValue(i, valueAt(i, false));
}

void main() {
    uint count = elementCount();
    if ((pc.flags & kFlagCopyBack) != 0u) {
        copyResult(count);
        return;
    }
    DigitMap map = digitMap(pc.shift, pc.endBit);
    uint slot = gl_LocalInvocationIndex % WORKGROUP_KEYS;
    uint k = flatWorkgroupIndex() * WORKGROUP_KEYS + slot;
    bool mine = k < count;
    Key key = mine ? keysIn[k] : Key(0u);
    uvec2 bits = sortedBits(key, map, pc.endBit);
    s_place[gl_LocalInvocationIndex] = 0u;
    uint ahead = 0u;
    for (uint base = 0u; base < count; base += CHUNK_KEYS) {
        barrier(); // (every invocation is done with the last chunk)
        loadChunk(base, count, map);
        barrier();
        if (mine) ahead += aheadInPart(base, count, k, bits);
    }
    if (mine) atomicAdd(s_place[slot], ahead);
    barrier();
    if (mine && gl_LocalInvocationIndex < WORKGROUP_KEYS) {
        uint place = s_place[slot];
        keysOut[place] = key;
        storeValue(place, valueAt(k, (pc.flags & kFlagIndexValues) != 0u));
    }
}
