// SPDX-License-Identifier: MIT
#version 450
// Keys sorted by comparisons in workgroups of TILE_SIZE keys, where the tuning row's pass counts
// give them to it (src/program.cpp, chunksCompared): the merge sort's first step, where workgroup
// w sorts keys [w * TILE_SIZE, (w + 1) * TILE_SIZE) (the last chunk shorter) and leaves them in
// sort order for the merge step (merge_rank.comp), and a whole sort of up to TILE_SIZE keys
// (kFlagMapOut: the caller's keys), as the single-workgroup sort does with a pass per digit.
// Invocation t sorts the KEYS_PER_THREAD (K) keys at [t * K, (t + 1) * K) in registers, then
// log2(workgroup size) rounds merge neighbouring sorted runs pairwise through shared memory: an
// invocation finds where its K places of the merged pair start in each run (a merge-path search)
// and merges K keys from there. Both steps keep equal keys in input order (the register sort swaps
// only neighbours, and a merge takes the earlier run's key first), so the sort is stable. Shared
// memory holds each key's sorted bits and its place in the chunk; the keys and values are read
// again by that place at the end, so the output binding may be the input buffer (every read comes
// before the barrier that precedes the writes). Every step that runs it reads the caller's keys
// (kFlagMapIn).

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"

const uint K = KEYS_PER_THREAD;

// A plane per word: the sorted bits' low (and, for 64-bit keys, high) words, and the key's place
// in the chunk. Word i of a plane lives at swizzled(i), which keeps i's row of 32 words and
// spreads an invocation's run of K consecutive words so that the lanes of a subgroup writing
// theirs hit distinct banks.
shared uint s_bits[KEY_WORDS * TILE_SIZE];
shared uint s_place[TILE_SIZE];

uint swizzled(uint i) { return i ^ ((i >> 5u) & 31u); }

uvec2 bitsAt(uint i) {
    uint at = swizzled(i);
    return uvec2(s_bits[at], KEY_WORDS == 2u ? s_bits[TILE_SIZE + at] : 0u);
}

void storeBits(uint i, uvec2 bits) {
    uint at = swizzled(i);
    s_bits[at] = bits.x;
    if (KEY_WORDS == 2u) s_bits[TILE_SIZE + at] = bits.y;
}

void main() {
    uint base = flatWorkgroupIndex() * TILE_SIZE, count = elementCount();
    if (base >= count) return;
    uint valid = min(count - base, TILE_SIZE);
    uint t = gl_LocalInvocationIndex;
    DigitMap map = digitMap(pc.shift, pc.endBit);

    // The chunk's sorted bits, read in consecutive lanes and stored by place: places from `valid`
    // on get the largest bits and, being last, stay behind every key.
    [[unroll]] for (uint j = 0u; j < K; ++j) {
        uint slot = j * gl_WorkGroupSize.x + t;
        storeBits(slot, slot < valid ? sortedBits(keysIn[base + slot], map, pc.endBit) : uvec2(0xFFFFFFFFu));
    }
    barrier();

    // This invocation's run, sorted in registers by swaps of neighbours (odd-even transposition).
    uvec2 bits[K];
    uint place[K];
    [[unroll]] for (uint j = 0u; j < K; ++j) {
        bits[j] = bitsAt(t * K + j);
        place[j] = t * K + j;
    }
    [[unroll]] for (uint r = 0u; r < K; ++r) {
        [[unroll]] for (uint j = r % 2u; j + 1u < K; j += 2u) {
            bool swap = goesAhead(bits[j + 1u], bits[j], false);
            uvec2 b = bits[j];
            uint p = place[j];
            bits[j] = swap ? bits[j + 1u] : b;
            place[j] = swap ? place[j + 1u] : p;
            bits[j + 1u] = swap ? b : bits[j + 1u];
            place[j + 1u] = swap ? p : place[j + 1u];
        }
    }
    // (Only this invocation reads or writes its run's places until the next barrier.)
    [[unroll]] for (uint j = 0u; j < K; ++j) {
        storeBits(t * K + j, bits[j]);
        s_place[swizzled(t * K + j)] = place[j];
    }

    // Merge rounds: runs of `run` keys become runs of 2 * run. This invocation writes places
    // [first, first + K) of the pair that starts at `pair`, whose runs are A = [pair, pair + run)
    // and B = [pair + run, pair + 2 * run).
    for (uint run = K; run < TILE_SIZE; run *= 2u) {
        barrier();
        uint first = t * K, pair = first & ~(2u * run - 1u), diagonal = first - pair;
        uint a = pair, b = pair + run;
        // How many of the pair's first `diagonal` keys come from A: A's key `mid` is among them
        // when it goes ahead of B's key diagonal - 1 - mid (ties: A's, the earlier run's).
        uint lo = diagonal > run ? diagonal - run : 0u, hi = min(diagonal, run);
        while (lo < hi) {
            uint mid = (lo + hi) / 2u;
            if (goesAhead(bitsAt(a + mid), bitsAt(b + diagonal - 1u - mid), true)) lo = mid + 1u;
            else hi = mid;
        }
        uint fromA = lo, fromB = diagonal - lo;
        uvec2 headA = bitsAt(a + min(fromA, run - 1u)), headB = bitsAt(b + min(fromB, run - 1u));
        uint placeA = s_place[swizzled(a + min(fromA, run - 1u))], placeB = s_place[swizzled(b + min(fromB, run - 1u))];
        [[unroll]] for (uint j = 0u; j < K; ++j) {
            bool takeA = fromA < run && (fromB >= run || goesAhead(headA, headB, true));
            bits[j] = takeA ? headA : headB;
            place[j] = takeA ? placeA : placeB;
            fromA += takeA ? 1u : 0u;
            fromB += takeA ? 0u : 1u;
            uint next = takeA ? a + min(fromA, run - 1u) : b + min(fromB, run - 1u);
            uvec2 nextBits = bitsAt(next);
            uint nextPlace = s_place[swizzled(next)];
            headA = takeA ? nextBits : headA;
            placeA = takeA ? nextPlace : placeA;
            headB = takeA ? headB : nextBits;
            placeB = takeA ? placeB : nextPlace;
        }
        barrier();
        [[unroll]] for (uint j = 0u; j < K; ++j) {
            storeBits(first + j, bits[j]);
            s_place[swizzled(first + j)] = place[j];
        }
    }
    barrier();

    // The sorted chunk, in consecutive lanes: every key and value read by its place, then, past
    // a barrier, written.
    Key keys[K];
    Value values[K];
    bool index = (pc.flags & kFlagIndexValues) != 0u;
    [[unroll]] for (uint j = 0u; j < K; ++j) {
        uint slot = j * gl_WorkGroupSize.x + t;
        uint from = base + s_place[swizzled(slot)];
        keys[j] = slot < valid ? keysIn[from] : Key(0u);
        values[j] = slot < valid ? valueAt(from, index) : Value(0u);
        if (mapsKeysIn(map) && !mapsKeysOut(map)) keys[j] = orderedKey(keys[j], map);
    }
    memoryBarrierBuffer();
    barrier();
    [[unroll]] for (uint j = 0u; j < K; ++j) {
        uint slot = j * gl_WorkGroupSize.x + t;
        if (slot < valid) {
            keysOut[base + slot] = keys[j];
            storeValue(base + slot, values[j]);
        }
    }
}
