#version 450
// Pass 1 of 3: how many keys of each digit value this workgroup's tile holds.
//
// Each invocation counts its keys in registers, sixteen 16-bit counters packed into eight words;
// subgroupAdd sums the packed words across the subgroup (no field can carry: a subgroup sees at
// most 128 lanes * keys per thread < 65536 keys, which the host checks), and one lane per
// subgroup adds the totals into shared memory. The result goes to the counts table, digit-major,
// for the scan.

#include "common.glsl"
#include "tile.glsl"

shared uint s_counts[kRadix];

void main() {
    if (!launchIsSupported()) return;
    uint tile = flatWorkgroupIndex();
    if (tile >= tileCount()) return;
    uint tileBase = tile * TILE_SIZE;
    uint valid = min(TILE_SIZE, elementCount() - tileBase);

    if (gl_LocalInvocationIndex < kRadix) s_counts[gl_LocalInvocationIndex] = 0u;

    uint packed[kRadix / 2u];
    for (uint w = 0u; w < kRadix / 2u; ++w) packed[w] = 0u;
    // Striped: in step j the workgroup reads gl_WorkGroupSize.x consecutive keys. Counting needs
    // no order, only that every key of the tile is seen once.
    for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = j * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
        if (slot < valid) {
            uint digit = digitOf(keysIn[tileBase + slot], pc.shift, pc.endBit);
            uint increment = 1u << ((digit & 1u) * 16u);
            for (uint w = 0u; w < kRadix / 2u; ++w) {
                packed[w] += (digit >> 1u) == w ? increment : 0u;
            }
        }
    }
    barrier(); // s_counts is zeroed
    for (uint w = 0u; w < kRadix / 2u; ++w) {
        uint sum = subgroupAdd(packed[w]);
        if (subgroupElect()) {
            if ((sum & 0xFFFFu) != 0u) atomicAdd(s_counts[2u * w], sum & 0xFFFFu);
            if ((sum >> 16u) != 0u) atomicAdd(s_counts[2u * w + 1u], sum >> 16u);
        }
    }
    barrier();
    if (gl_LocalInvocationIndex < kRadix) {
        uint digit = gl_LocalInvocationIndex;
        tables[kCountsOffset + digit * pc.rowStride + tile] = s_counts[digit];
    }
}
