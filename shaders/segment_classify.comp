// SPDX-License-Identifier: MIT
#version 450
// A segmented sort by offsets: which of the caller's segments each class sorts, decided on the
// GPU. Two dispatches, after the tiny segments' (which read the offsets themselves):
//
// - first: each workgroup counts, over its share of the segments (consecutive ones), the
//   mid-sized, small and large segments and the large ones' tiles, into its row of the classify
//   counts (vksort_config.h, "A segmented sorter's tables");
// - then (kFlagClassifyPlaces): each workgroup finds where its members start from the rows of the workgroups
//   before it, and writes its mid-sized and small segments' (begin, end) to their lists, its large
//   segments' (begin, end, first tile) to theirs and the member of each of their tiles, all in
//   segment order; the last workgroup writes the members' counts, the large segments' tile count
//   and the launches of the later dispatches (mid-sized and small segments a workgroup each, the
//   passes a workgroup per tile and, over those tiles, the scan steps).
//
// Tiles are the main tile's, a segment's own (tile.glsl). Nothing here waits for another
// workgroup, and every list entry has one writer, so the lists are the same every run. The
// offsets come through the count binding of the launch set, which alone binds the launch arguments.

#include "common.glsl"
#include "tile.glsl"

// The caller's offsets, from word pc.offsetsWord.
layout(set = 0, binding = kBindingCountIn, std430) readonly buffer Offsets { uint offsetsIn[]; };
layout(set = 0, binding = kBindingLaunchArgs, std430) restrict writeonly buffer LaunchArgs { uint launchArgs[]; };

// Per class (mid-sized, small, large, large tiles): the workgroup's sum, then where its next
// members go.
shared uint s_counts[4];

uvec2 rangeOf(uint segment) {
    uint begin = min(offsetsIn[pc.offsetsWord + segment], pc.count);
    return uvec2(begin, max(begin, min(offsetsIn[pc.offsetsWord + segment + 1u], pc.count)));
}

// A segment's share of each class: one in its class (none for a tiny one), and a large one's tiles.
uvec4 classOf(uvec2 range) {
    uint size = range.y - range.x;
    if (size <= pc.tinyMaxCount) return uvec4(0u);
    if (size <= pc.midMaxCount) return uvec4(1u, 0u, 0u, 0u);
    if (size <= pc.singleMaxCount) return uvec4(0u, 1u, 0u, 0u);
    return uvec4(0u, 0u, 1u, vksortCeilDiv(size, TILE_SIZE));
}

// Adds every invocation's `value` into s_counts (zeroed and published by barriers around it).
void sumCounts(uvec4 value) {
    if (gl_LocalInvocationIndex < 4u) s_counts[gl_LocalInvocationIndex] = 0u;
    barrier();
    uvec4 sum = subgroupAdd(value);
    if (subgroupElect()) {
        [[unroll]] for (uint c = 0u; c < 4u; ++c) {
            if (sum[c] != 0u) atomicAdd(s_counts[c], sum[c]);
        }
    }
    barrier();
}

void writeArgs(uint at, uint workgroups) {
    launchArgs[at] = vksortGridWidth(workgroups, pc.dispatchWidth);
    launchArgs[at + 1u] = vksortGridRows(workgroups, pc.dispatchWidth);
    launchArgs[at + 2u] = 1u;
}

void main() {
    uint workgroup = gl_WorkGroupID.x, invocation = gl_LocalInvocationIndex;
    uint share = vksortCeilDiv(pc.segmentCount, gl_NumWorkGroups.x);
    uint first = min(workgroup * share, pc.segmentCount);
    uint end = min(first + share, pc.segmentCount);
    uint counts = vksortClassifyCountsOffset(pc.rowStride);
    if ((pc.flags & kFlagClassifyPlaces) == 0u) {
        uvec4 mine = uvec4(0u);
        for (uint s = first + invocation; s < end; s += gl_WorkGroupSize.x) mine += classOf(rangeOf(s));
        sumCounts(mine);
        if (invocation < 4u) tables[counts + 4u * workgroup + invocation] = s_counts[invocation];
        return;
    }

    uvec4 before = uvec4(0u);
    for (uint w = invocation; w < workgroup; w += gl_WorkGroupSize.x) {
        before += uvec4(tables[counts + 4u * w], tables[counts + 4u * w + 1u], tables[counts + 4u * w + 2u],
                        tables[counts + 4u * w + 3u]);
    }
    sumCounts(before);
    uvec4 next = uvec4(s_counts[0], s_counts[1], s_counts[2], s_counts[3]);
    uint midList = vksortMidListOffset(pc.rowStride, pc.maxCount);
    uint singleList = vksortSingleListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount);
    uint largeList = vksortLargeListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount, pc.midMaxCount);
    uint tileMembers = vksortTileMembersOffset(pc.rowStride);
    for (uint chunk = first; chunk < end; chunk += gl_WorkGroupSize.x) {
        uint s = chunk + invocation;
        uvec2 range = s < end ? rangeOf(s) : uvec2(0u);
        uvec4 c = classOf(range);
        // The three classes' places in one scan: 11 bits each hold up to 2047 members per chunk.
        uint total;
        uint places = workgroupExclusiveScan(c.x | (c.y << 11u) | (c.z << 22u), total);
        barrier(); // (before the scan's shared words are reused)
        uint tileTotal;
        uint firstTile = next.w + workgroupExclusiveScan(c.w, tileTotal);
        if (c.x != 0u) {
            uint at = midList + 2u * (next.x + (places & 0x7FFu));
            tables[at] = range.x;
            tables[at + 1u] = range.y;
        } else if (c.y != 0u) {
            uint at = singleList + 2u * (next.y + ((places >> 11u) & 0x7FFu));
            tables[at] = range.x;
            tables[at + 1u] = range.y;
        } else if (c.z != 0u) {
            uint member = next.z + (places >> 22u);
            uint at = largeList + 3u * member;
            tables[at] = range.x;
            tables[at + 1u] = range.y;
            tables[at + 2u] = firstTile;
            for (uint t = 0u; t < c.w; ++t) tables[tileMembers + firstTile + t] = member;
        }
        next += uvec4(total & 0x7FFu, (total >> 11u) & 0x7FFu, total >> 22u, tileTotal);
        barrier(); // (before the next chunk's scans)
    }
    if (workgroup + 1u == gl_NumWorkGroups.x && invocation == 0u) {
        tables[kInfoMidMembers] = next.x;
        tables[kInfoSingleMembers] = next.y;
        tables[kInfoLargeMembers] = next.z;
        tables[kInfoNumTiles] = next.w;
        writeArgs(kLaunchMidArgs, next.x);
        writeArgs(kLaunchSingleArgs, next.y);
        writeArgs(kLaunchTileArgs, next.w);
        launchArgs[kLaunchScanArgs] = next.w == 0u ? 0u : scanWorkgroups(next.w);
        launchArgs[kLaunchScanArgs + 1u] = 1u;
        launchArgs[kLaunchScanArgs + 2u] = 1u;
    }
}
