// SPDX-License-Identifier: MIT
#version 450
// The merge sort's second step (src/program.cpp): the keys arrive as chunks of pc.singleMaxCount
// keys (the last one shorter), each sorted by the single-workgroup sort and left in sort order,
// and leave as one sorted array. A key's place is its place in its own chunk plus, in every other
// chunk, the number of keys that go ahead of it: smaller in the sorted bits, or equal and in an
// earlier chunk, which came earlier in the input (so equal keys keep their input order).
//
// Workgroup w places a block of consecutive keys of one chunk. They are sorted, so in another
// chunk the keys that can fall between two of them lie in one window: the workgroup finds each
// window's ends from a sample of every chunk (every stride-th key) and loads the windows into
// shared memory, where the binary searches then run, several invocations per key, each over its
// share of the chunks. A window longer than its room (keys far from uniform, many equal ones) is
// searched in memory instead, each key's range narrowed by the samples first: slower, as correct.
// The block has one of two shapes, each compiled with its sizes as constants: the usual, or a
// wider one (kFlagWideBlocks: half the workgroups for the same keys, where they would be many).

#include "common.glsl"
#include "tile.glsl"

// Chunks the windows have room for (their words: mergeRankSharedMemoryBytes in src/plan.cpp).
const uint MAX_CHUNKS = kMergeChunks;
// Invocations per key, each searching its share of the other chunks (the host's divisors of the
// workgroup size), for either shape of block: the wide blocks' no more.
layout(constant_id = kSpecMergeKeyLanes) const uint KEY_LANES = 4;
layout(constant_id = kSpecMergeWideKeyLanes) const uint WIDE_KEY_LANES = 4;
const uint BLOCK_KEYS = gl_WorkGroupSize.x / KEY_LANES;
const uint WIDE_BLOCK_KEYS = gl_WorkGroupSize.x / WIDE_KEY_LANES;
// The windows' room, in keys (the host's mergeWindowRoom). Where the keys are uniform a block's
// keys span about a block of every other chunk, give or take, and the samples' stride pads each
// end by less than a stride: a usual block's window gets twice the block, a wide block's what the
// room holds for every chunk but its own.
layout(constant_id = kSpecMergeWindowRoom) const uint WINDOW_ROOM = 8192;
const uint SAMPLES = kMergeSamples;
const uint SAMPLE_ROUNDS = (MAX_CHUNKS * SAMPLES + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
const uint WINDOW_ROUNDS = (WINDOW_ROOM + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;

// Sorted bits, KEY_WORDS words per key.
shared uint s_samples[MAX_CHUNKS * SAMPLES * KEY_WORDS];
shared uint s_windows[WINDOW_ROOM * KEY_WORDS];
// Per chunk: where its window starts and ends within it.
shared uint s_bounds[2u * kMergeChunks];
// Per key of the block: its place, summed over its invocations.
shared uint s_place[WIDE_BLOCK_KEYS];

// The count, read once (an indirect sort's lies in the tables, which every load would read again).
uint g_count;
uint chunkLength(uint chunk) { return min(pc.singleMaxCount, g_count - chunk * pc.singleMaxCount); }
uint sampleCount(uint chunk, uint stride) { return vksortCeilDiv(chunkLength(chunk), stride); }

// The keys in sort order have no mapping left, only the sorted bits to take.
DigitMap bitsOnly() {
    DigitMap map = digitMap(pc.shift, pc.endBit);
    map.signBit = 0u;
    map.descending = 0u;
    map.floatMask = 0u;
    return map;
}

// Every chunk's samples into s_samples, the loads all in flight before the first is stored.
void loadSamples(uint chunks, uint stride, DigitMap bits) {
    Key held[SAMPLE_ROUNDS];
    [[unroll]] for (uint r = 0u; r < SAMPLE_ROUNDS; ++r) {
        uint s = gl_LocalInvocationIndex + r * gl_WorkGroupSize.x;
        uint chunk = s / SAMPLES, at = (s % SAMPLES) * stride;
        held[r] = chunk < chunks && at < chunkLength(chunk) ? keysIn[chunk * pc.singleMaxCount + at] : Key(0u);
    }
    [[unroll]] for (uint r = 0u; r < SAMPLE_ROUNDS; ++r) {
        uint s = gl_LocalInvocationIndex + r * gl_WorkGroupSize.x;
        if (s >= MAX_CHUNKS * SAMPLES) continue;
        uvec2 b = sortedBits(held[r], bits, pc.endBit);
        s_samples[KEY_WORDS * s] = b.x;
        if (KEY_WORDS == 2u) s_samples[2u * s + 1u] = b.y;
    }
}

// Where a search reads sorted bits: the samples or the windows (shared memory), or the keys.
const uint kFromSamples = 0u, kFromWindows = 1u, kFromKeys = 2u;
uvec2 bitsAt(uint from, uint i, DigitMap bits) {
    if (from == kFromKeys) return sortedBits(keysIn[i], bits, pc.endBit);
    if (from == kFromSamples) {
        return KEY_WORDS == 2u ? uvec2(s_samples[2u * i], s_samples[2u * i + 1u]) : uvec2(s_samples[i], 0u);
    }
    return KEY_WORDS == 2u ? uvec2(s_windows[2u * i], s_windows[2u * i + 1u]) : uvec2(s_windows[i], 0u);
}

// How many of the n sorted keys at [first, first + n) of `from` go ahead of a key whose sorted
// bits are `mine`: a binary search, since those that do come first. Its steps depend on n alone,
// not on the keys, so invocations that search one window (a subgroup's, where a block has at
// least a subgroup's keys) halve it in lockstep without branching.
uint aheadIn(uint from, uint first, uint n, uvec2 mine, bool earlier, DigitMap bits) {
    if (n == 0u) return 0u;
    // The answer lies in [at, at + len]: the key at `at + step - 1` goes ahead or not.
    uint at = first;
    for (uint len = n; len > 1u;) {
        uint step = len / 2u;
        at = goesAhead(bitsAt(from, at + step - 1u, bits), mine, earlier) ? at + step : at;
        len -= step;
    }
    return at - first + (goesAhead(bitsAt(from, at, bits), mine, earlier) ? 1u : 0u);
}

// Keys [start, end) of `chunk`, narrowed by the samples: with q samples ahead of `mine`, the
// keys ahead of it are more than (q - 1) strides (the last such sample's key is one) and at most q
// strides (the next sample's key is not).
uvec2 sampledRange(uint chunk, uint stride, uvec2 mine, bool earlier, DigitMap bits) {
    uint q = aheadIn(kFromSamples, chunk * SAMPLES, sampleCount(chunk, stride), mine, earlier, bits);
    return uvec2(q > 0u ? (q - 1u) * stride + 1u : 0u, min(q * stride, chunkLength(chunk)));
}

// Search i of [0, 2 * chunks) finds the window of chunk i / 2 for the block's first key (even i)
// and last key (odd i), a search per invocation.
void findWindows(uint chunks, uint own, uint stride, uvec2 firstBits, uvec2 lastBits, DigitMap bits) {
    for (uint i = gl_LocalInvocationIndex; i < 2u * chunks; i += gl_WorkGroupSize.x) {
        uint chunk = i / 2u;
        if (chunk == own) continue;
        bool last = i % 2u == 1u;
        uvec2 range = sampledRange(chunk, stride, last ? lastBits : firstBits, chunk < own, bits);
        s_bounds[i] = last ? range.y : range.x;
    }
}

// A shape's windows in s_windows (constants in each shape's code): `room` keys each, in chunk
// order, the block's own chunk left out where `skipOwn`.
struct Windows {
    uint room;
    bool skipOwn;
};
uint windowSlots(Windows w) { return w.skipOwn ? MAX_CHUNKS - 1u : MAX_CHUNKS; }
uint windowStart(uint chunk, uint own, Windows w) { return (w.skipOwn && chunk > own ? chunk - 1u : chunk) * w.room; }
bool windowFits(uint chunk, Windows w) { return s_bounds[2u * chunk + 1u] - s_bounds[2u * chunk] <= w.room; }

// The windows that fit into s_windows.
void loadWindows(uint chunks, uint own, Windows w, DigitMap bits) {
    Key held[WINDOW_ROUNDS];
    uint room = w.room, end = windowSlots(w) * room;
    [[unroll]] for (uint r = 0u; r < WINDOW_ROUNDS; ++r) {
        if (r * gl_WorkGroupSize.x >= end) break;
        uint s = gl_LocalInvocationIndex + r * gl_WorkGroupSize.x;
        // (chunks <= MAX_CHUNKS, so past the windows chunk >= chunks.)
        uint slot = s / room, at = s % room;
        uint chunk = w.skipOwn && slot >= own ? slot + 1u : slot;
        bool inWindow = chunk < chunks && chunk != own && windowFits(chunk, w) && at < s_bounds[2u * chunk + 1u] - s_bounds[2u * chunk];
        held[r] = inWindow ? keysIn[chunk * pc.singleMaxCount + s_bounds[2u * chunk] + at] : Key(0u);
    }
    [[unroll]] for (uint r = 0u; r < WINDOW_ROUNDS; ++r) {
        uint s = gl_LocalInvocationIndex + r * gl_WorkGroupSize.x;
        if (s >= end) break;
        uvec2 b = sortedBits(held[r], bits, pc.endBit);
        s_windows[KEY_WORDS * s] = b.x;
        if (KEY_WORDS == 2u) s_windows[2u * s + 1u] = b.y;
    }
}

// How many keys of `chunk` go ahead of a key whose sorted bits are `mine`: in its window, or in
// the range of its keys the samples narrow it to.
uint keysAhead(uint chunk, uint own, uint stride, Windows w, uvec2 mine, bool earlier, DigitMap bits) {
    uint start = s_bounds[2u * chunk];
    if (windowFits(chunk, w)) {
        return start + aheadIn(kFromWindows, windowStart(chunk, own, w), s_bounds[2u * chunk + 1u] - start, mine, earlier, bits);
    }
    uvec2 range = sampledRange(chunk, stride, mine, earlier, bits);
    return range.x + aheadIn(kFromKeys, chunk * pc.singleMaxCount + range.x, range.y - range.x, mine, earlier, bits);
}

// Places this workgroup's block of blockKeys keys (a divisor of the workgroup: keyLanes
// invocations per key), its windows laid out as `w` (the constants of one shape).
void placeBlock(uint blockKeys, Windows w) {
    uint keyLanes = gl_WorkGroupSize.x / blockKeys;
    uint chunkKeys = pc.singleMaxCount, count = g_count;
    uint chunks = vksortCeilDiv(count, chunkKeys), blocks = vksortCeilDiv(chunkKeys, blockKeys);
    uint own = flatWorkgroupIndex() / blocks;
    // (The host merges at most MAX_CHUNKS chunks.)
    if (own >= chunks || chunks > MAX_CHUNKS) return;
    uint begin = own * chunkKeys, length = chunkLength(own);
    uint first = flatWorkgroupIndex() % blocks * blockKeys;
    if (first >= length) return;
    uint last = min(first + blockKeys, length) - 1u;
    // Invocation (lane, slot) searches chunks lane, lane + keyLanes, ... for key `slot`.
    uint slot = gl_LocalInvocationIndex % blockKeys, lane = gl_LocalInvocationIndex / blockKeys;
    uint i = first + slot;
    bool mine = i <= last;
    DigitMap map = digitMap(pc.shift, pc.endBit), bits = bitsOnly();
    uint stride = vksortCeilDiv(chunkKeys, SAMPLES);
    Key key = keysIn[begin + min(i, last)];
    uvec2 keyBits = sortedBits(key, bits, pc.endBit);
    uvec2 firstBits = sortedBits(keysIn[begin + first], bits, pc.endBit);
    uvec2 lastBits = sortedBits(keysIn[begin + last], bits, pc.endBit);
    if (lane == 0u) s_place[slot] = i;
    loadSamples(chunks, stride, bits);
    barrier();
    findWindows(chunks, own, stride, firstBits, lastBits, bits);
    barrier();
    loadWindows(chunks, own, w, bits);
    barrier();
    uint ahead = 0u;
    for (uint chunk = lane; mine && chunk < chunks; chunk += keyLanes) {
        if (chunk != own) ahead += keysAhead(chunk, own, stride, w, keyBits, chunk < own, bits);
    }
    if (ahead != 0u) atomicAdd(s_place[slot], ahead);
    barrier();
    if (!mine || lane != 0u) return;
    uint place = s_place[slot];
    keysOut[place] = mapsKeysOut(map) ? callerKey(key, map) : key;
    storeValue(place, valueAt(begin + i, false));
}

void main() {
    g_count = elementCount();
    if ((pc.flags & kFlagWideBlocks) != 0u) {
        placeBlock(WIDE_BLOCK_KEYS, Windows(WINDOW_ROOM / (MAX_CHUNKS - 1u), true));
    } else {
        placeBlock(BLOCK_KEYS, Windows(min(2u * BLOCK_KEYS, WINDOW_ROOM / MAX_CHUNKS), false));
    }
}
