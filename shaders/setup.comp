// SPDX-License-Identifier: MIT
#version 450
// The first step of every indirect sort: turns the count the caller's GPU work produced into the
// launch of every later dispatch, with no host round trip. It reads the caller's count where a
// sort with push descriptors binds it (keys-in, kFlagCountBound), or the copy the recording made
// in tables[kInfoRequested]; clamps it to the bindings' capacity (documented in
// vksort.h), decides between the single-workgroup sort and the passes, and between a scan step
// and the reorders' inline scan, and writes the VkDispatchIndirectCommand of each into the launch
// arguments (vksort_config.h): dispatches of the path not taken, and workgroups past the count,
// are never launched.

#include "common.glsl"
#include "tile.glsl"

// The launch arguments' range, which only this step's set binds (kBindingLaunchArgs).
layout(set = 0, binding = kBindingLaunchArgs, std430) restrict writeonly buffer LaunchArgs { uint launchArgs[]; };

void writeArgs(uint at, uint x, uint y) {
    launchArgs[at] = x;
    launchArgs[at + 1u] = y;
    launchArgs[at + 2u] = 1u;
}

void main() {
    if (gl_LocalInvocationIndex != 0u) return;
    uint requested = (pc.flags & kFlagCountBound) != 0u ? keysIn[pc.count] : tables[kInfoRequested];
    uint count = min(requested, pc.maxCount);
    uint tiles = vksortCeilDiv(count, TILE_SIZE);
    bool single = vksortSingleWorkgroup(count, pc.singleMaxCount);
    tables[kInfoCount] = count;
    tables[kInfoNumTiles] = tiles;
    uint passGroups = single ? 0u : tiles;
    writeArgs(kLaunchTileArgs, vksortGridWidth(passGroups, pc.dispatchWidth), vksortGridRows(passGroups, pc.dispatchWidth));
    bool inlined = vksortInlineScan(tiles, pc.inlineScanMaxTiles);
    tables[kInfoInlineScan] = inlined ? 1u : 0u;
    writeArgs(kLaunchScanArgs, single || inlined ? 0u : scanWorkgroups(tiles), 1u);
    writeArgs(kLaunchSingleArgs, single && count > 0u ? 1u : 0u, 1u);
}
