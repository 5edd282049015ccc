// SPDX-License-Identifier: MIT
#version 450
// A segmented sort's tiny segments, of at most pc.tinyMaxCount keys (at most this kernel's
// workgroup size), an invocation per key. A key's place in its segment is the number of the segment's keys
// that sort before it: smaller in the sorted bits, or equal and earlier, which keeps equal keys in
// input order. One comparison per key of the segment and no passes, so segments of a few keys
// cost little more than their reads and writes. Larger segments are the other classes'. The
// output binding is wherever the passes leave their result, which may be the input buffer itself:
// every key is read before any is written.
//
// Workgroups take the segments in batches (segments.glsl) and sort them a window at a time: as
// many whole segments as fit its invocations, so that segments of a few keys share the
// workgroup's barriers rather than take turns at them. Uniform segments lie one after another
// already. By offsets an invocation reads each one's range and the batch's tiny segments are
// packed one after another first.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "segments.glsl"

// Each window key as the bits it sorts by (sortedBits: low word, high word).
shared uvec2 s_sortedBits[gl_WorkGroupSize.x];
// Per tiny segment of the batch (in the order of the scans below): its first key, and where its
// keys start among the batch's packed keys (one entry more: where they end).
shared uint s_begin[gl_WorkGroupSize.x];
shared uint s_start[gl_WorkGroupSize.x + 1u];
// One past the current window's last segment.
shared uint s_windowEnd;

// How many of the keys [first, end) of s_sortedBits go ahead of key k, whose sorted bits are `bits`:
// its place among them.
uint placeAmong(uint first, uint end, uint k, uvec2 bits) {
    uint place = 0u;
    for (uint other = first; other < end; ++other) place += goesAhead(s_sortedBits[other], bits, other < k) ? 1u : 0u;
    return place;
}

// Reads batch `batch`'s segments of `segments`, one per invocation, and packs its tiny ones into
// s_begin and s_start; returns how many (the same in every invocation). Every invocation must call it.
uint packTinySegments(uint batch, uint segments) {
    uvec2 range = uvec2(0u);
    uint segment = batch * batchSize(segments) + gl_LocalInvocationIndex;
    if (gl_LocalInvocationIndex < batchSize(segments) && segment < segments) range = segmentRange(segment);
    uint size = range.y - range.x;
    bool tiny = size != 0u && size <= pc.tinyMaxCount;
    uint members, keys;
    uint slot = workgroupExclusiveScan(tiny ? 1u : 0u, members);
    barrier(); // (the scans' shared words are reused)
    uint start = workgroupExclusiveScan(tiny ? size : 0u, keys);
    if (tiny) {
        s_begin[slot] = range.x;
        s_start[slot] = start;
    }
    if (gl_LocalInvocationIndex == 0u) s_start[members] = keys;
    barrier();
    return members;
}

// Sorts the window's segments, invocation k taking window key k if `mine`: key `slot` of a segment
// of `count` keys that starts at key `begin` of the bound ranges and at window key k - slot. Ends
// with a barrier after its last read of shared memory.
void sortWindowKeys(bool mine, uint begin, uint slot, uint count, DigitMap map) {
    uint k = gl_LocalInvocationIndex;
    Key key = Key(0u);
    Value value = Value(0u);
    uvec2 bits = uvec2(0u);
    if (mine) {
        key = keysIn[begin + slot];
        value = valueAt(begin + slot, (pc.flags & kFlagIndexValues) != 0u);
        bits = sortedBits(key, map, pc.endBit);
        s_sortedBits[k] = bits;
    }
    barrier();
    if (mine) {
        uint place = placeAmong(k - slot, k - slot + count, k, bits);
        keysOut[begin + place] = key;
        storeValue(begin + place, value);
    }
    barrier();
}

// Sorts `n` uniform segments from segment `first`, as many as fit gl_WorkGroupSize.x keys (at
// least one): invocation k takes key k % size of segment first + k / size, if that segment is
// tiny.
void sortUniformWindow(uint first, uint n, DigitMap map) {
    uint k = gl_LocalInvocationIndex;
    uint local = k / pc.segmentSize;
    uvec2 range = local < n ? segmentRange(first + local) : uvec2(0u);
    uint count = range.y - range.x, slot = k - local * pc.segmentSize;
    sortWindowKeys(slot < count && count <= pc.tinyMaxCount, range.x, slot, count, map);
}

// Sorts the window of packed segments [first, s_windowEnd), whose keys start at packed key `base`:
// invocation k takes packed key base + k.
void sortWindow(uint first, uint base, DigitMap map) {
    uint end = s_windowEnd;
    uint packed = base + gl_LocalInvocationIndex;
    // The key's segment: the last of the window's that starts at or before it.
    uint lo = first, hi = end - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) / 2u;
        if (s_start[mid] <= packed) lo = mid;
        else hi = mid - 1u;
    }
    sortWindowKeys(packed < s_start[end], s_begin[lo], packed - s_start[lo], s_start[lo + 1u] - s_start[lo], map);
}

void main() {
    DigitMap map = digitMap(pc.shift, pc.endBit);
    uint segments = segmentCount();
    for (uint batch = flatWorkgroupIndex(); batch < segmentBatches(segments); batch += launchedWorkgroups()) {
        if (pc.segmentSize != 0u) {
            // Uniform segments: windows of as many as fit the workgroup, known without reading or
            // packing anything. (Uniform segments above the tiny size have only a shorter last
            // segment here, a window each.)
            uint first = batch * batchSize(segments);
            uint n = min(batchSize(segments), segments - first);
            uint per = max(1u, gl_WorkGroupSize.x / pc.segmentSize);
            for (uint w = 0u; w < n; w += per) sortUniformWindow(first + w, min(per, n - w), map);
            continue;
        }
        uint members = packTinySegments(batch, segments);
        for (uint first = 0u; first < members; first = s_windowEnd) {
            // The window: the segments from `first` whose keys end within a workgroup's keys of
            // its start (at least `first` itself, of at most tinyMaxCount keys).
            uint base = s_start[first];
            barrier(); // (every invocation has read the last window's end)
            if (gl_LocalInvocationIndex == 0u) s_windowEnd = first + 1u;
            barrier();
            uint s = first + gl_LocalInvocationIndex;
            if (s < members && s_start[s + 1u] - base <= gl_WorkGroupSize.x) atomicMax(s_windowEnd, s + 1u);
            barrier();
            sortWindow(first, base, map);
        }
    }
}
