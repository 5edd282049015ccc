#version 450
// The scan method, before each reorder: exclusive prefix sums of the pass's counts table.
//
// One workgroup per digit scans that digit's counts (one per tile) in place, in chunks of
// gl_WorkGroupSize.x * kScanItemsPerThread tiles carried from chunk to chunk, so any number of
// tiles works; it then stores the digit's total in the pass's row of the totals, from which the
// reorder makes each digit's start.

#include "common.glsl"

void main() {
    uint digit = gl_WorkGroupID.x;
    uint tiles = tileCount();
    uint carry = 0u;
    for (uint chunk = 0u; chunk < tiles; chunk += gl_WorkGroupSize.x * kScanItemsPerThread) {
        barrier(); // the previous chunk's scan is done with its shared memory
        uint first = chunk + gl_LocalInvocationIndex * kScanItemsPerThread;
        uint counts[kScanItemsPerThread];
        uint sum = 0u;
        [[unroll]] for (uint i = 0u; i < kScanItemsPerThread; ++i) {
            counts[i] = first + i < tiles ? tables[countEntry(pc.countTable, digit, first + i)] : 0u;
            sum += counts[i];
        }
        uint chunkTotal;
        uint running = carry + workgroupExclusiveScan(sum, chunkTotal);
        [[unroll]] for (uint i = 0u; i < kScanItemsPerThread; ++i) {
            if (first + i < tiles) tables[countEntry(pc.countTable, digit, first + i)] = running;
            running += counts[i];
        }
        carry += chunkTotal;
    }
    if (gl_LocalInvocationIndex == 0u) tables[totalsEntry(pc.pass, digit)] = carry;
}
