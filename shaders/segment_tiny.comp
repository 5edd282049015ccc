// SPDX-License-Identifier: MIT
#version 450
// A segmented sort's tiny segments, of at most pc.tinyMaxCount keys (this kernel's workgroup
// size), taken in batches (segments.glsl) and sorted one after another, an invocation per key. A key's place in its segment is the
// number of the segment's keys that sort before it: smaller in the sorted bits, or equal and
// earlier, which keeps equal keys in input order. One comparison per key of the segment and no
// passes, so segments of a few keys cost little more than their reads and writes. Larger segments are the other classes'. The
// output binding is wherever the passes leave their result, which may be the input buffer itself:
// every key is read before any is written.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "segments.glsl"

// Each invocation's key, as the bits it sorts by (sortedBits: low word, high word).
shared uvec2 s_sortedBits[gl_WorkGroupSize.x];

bool sortsBefore(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

// Sorts one segment of 1 to gl_WorkGroupSize.x keys; ends with a barrier after its last read of
// s_sortedBits.
void sortTinySegment(uvec2 range) {
    uint count = range.y - range.x;
    uint slot = gl_LocalInvocationIndex;
    DigitMap map = digitMap(pc.shift, pc.endBit);
    Key key = Key(0u);
    Value value = Value(0u);
    uvec2 bits = uvec2(0u);
    if (slot < count) {
        key = keysIn[range.x + slot];
        value = valueAt(range.x + slot, (pc.flags & kFlagIndexValues) != 0u);
        bits = sortedBits(key, map, pc.endBit);
        s_sortedBits[slot] = bits;
    }
    barrier();
    if (slot < count) {
        uint place = 0u;
        for (uint other = 0u; other < count; ++other) {
            uvec2 theirs = s_sortedBits[other];
            place += sortsBefore(theirs, bits) || (theirs == bits && other < slot) ? 1u : 0u;
        }
        keysOut[range.x + place] = key;
        storeValue(range.x + place, value);
    }
    barrier();
}

void main() {
    for (uint batch = flatWorkgroupIndex(); batch < segmentBatches(); batch += launchedWorkgroups()) {
        ClassSegment mine;
        uint segments = collectSegments(batch, 0u, pc.tinyMaxCount, mine);
        for (uint i = 0u; i < segments; ++i) sortTinySegment(classSegment(i, mine));
    }
}
