#version 450
// The first step of every multi-tile sort by the look-back method and of every indirect sort:
// zeroes what the histogram and the reorders add into (the digit totals of every pass, the first
// pass's ticket and the fallback count), so the scratch buffer needs no clearing by the caller.
//
// Indirect sorts also turn the count the caller's GPU work produced into the launch of every
// later dispatch, with no host round trip. The recording copied the caller's count into
// tables[kInfoRequested]; this clamps it to the bindings' capacity (documented in vksort.h),
// decides between the single-workgroup sort and the passes, and writes the
// VkDispatchIndirectCommand of each: dispatches of the path not taken, and workgroups past the
// count, are never launched.

#include "common.glsl"
#include "tile.glsl"

void writeArgs(uint at, uint x, uint y) {
    tables[at] = x;
    tables[at + 1u] = y;
    tables[at + 2u] = 1u;
}

void main() {
    for (uint i = gl_LocalInvocationIndex; i < kMaxPasses * kRadix; i += gl_WorkGroupSize.x) {
        tables[kTotalsOffset + i] = 0u;
    }
    if (gl_LocalInvocationIndex != 0u) return;
    tables[kInfoFallbacks] = 0u;
    tables[kInfoTickets] = 0u; // the first reorder's (statusTable 0); each reorder zeroes the next one's
    if ((pc.flags & kFlagIndirect) == 0u) return;
    uint count = min(tables[kInfoRequested], pc.maxCount);
    uint tiles = vksortCeilDiv(count, TILE_SIZE);
    bool single = vksortSingleWorkgroup(count, pc.singleMaxCount);
    tables[kInfoCount] = count;
    tables[kInfoNumTiles] = tiles;
    uint passGroups = single ? 0u : tiles;
    writeArgs(kInfoTileArgs, vksortGridWidth(passGroups, pc.dispatchWidth), vksortGridRows(passGroups, pc.dispatchWidth));
    uint histogramGroups = single ? 0u : vksortCeilDiv(tiles, pc.histogramTiles);
    writeArgs(kInfoHistogramArgs, vksortGridWidth(histogramGroups, pc.dispatchWidth),
              vksortGridRows(histogramGroups, pc.dispatchWidth));
    bool inlined = vksortInlineScan(tiles, pc.inlineScanMaxTiles);
    tables[kInfoInlineScan] = inlined ? 1u : 0u;
    writeArgs(kInfoScanArgs, single || inlined ? 0u : vksortScanWorkgroups(tiles), 1u);
    writeArgs(kInfoSingleArgs, single && count > 0u ? 1u : 0u, 1u);
}
