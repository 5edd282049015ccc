#version 450
// Pass 2 of 3: exclusive prefix sums of the counts table.
//
// One workgroup per digit scans that digit's row (one count per tile) in place, in chunks of
// gl_WorkGroupSize.x * kScanItemsPerThread tiles carried from chunk to chunk, so any number of
// tiles works; it then stores the digit's total. The reorder pass adds the exclusive scan of
// the 16 totals, which turns row prefixes into global output positions.

#include "common.glsl"

void main() {
    uint digit = gl_WorkGroupID.x;
    uint tiles = tileCount();
    uint row = histogramEntry(pc.table, digit, 0u);
    uint carry = 0u;
    for (uint chunk = 0u; chunk < tiles; chunk += gl_WorkGroupSize.x * kScanItemsPerThread) {
        barrier(); // the previous chunk's scan is done with its shared memory
        uint first = chunk + gl_LocalInvocationIndex * kScanItemsPerThread;
        uint counts[kScanItemsPerThread];
        uint sum = 0u;
        [[unroll]] for (uint i = 0u; i < kScanItemsPerThread; ++i) {
            counts[i] = first + i < tiles ? tables[row + first + i] : 0u;
            sum += counts[i];
        }
        uint chunkTotal;
        uint running = carry + workgroupExclusiveScan(sum, chunkTotal);
        [[unroll]] for (uint i = 0u; i < kScanItemsPerThread; ++i) {
            if (first + i < tiles) tables[row + first + i] = running;
            running += counts[i];
        }
        carry += chunkTotal;
    }
    if (gl_LocalInvocationIndex == 0u) tables[kTotalsOffset + digit] = carry;
}
