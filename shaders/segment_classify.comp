// SPDX-License-Identifier: MIT
#version 450
// A segmented sort by offsets: which of the caller's segments each class sorts, decided on the
// GPU. Two dispatches, after the tiny segments' (which read the offsets themselves):
//
// - first: each workgroup counts, over its share of the segments (consecutive ones), the short,
//   mid-sized, small and large segments and the large ones' tiles, into its row of the classify
//   counts (vksort_config.h, "A segmented sorter's tables"), up to its cut;
// - then (kFlagClassifyPlaces): each workgroup finds where its members start from the rows of the workgroups
//   before it, and writes its short, mid-sized and small segments' (begin, end) to their lists, its large
//   segments' (begin, end, first tile) to theirs and the member of each of their tiles, all in
//   segment order; the last workgroup writes the members' counts, the large segments' tile count
//   and the launches of the later dispatches (short, mid-sized and small segments a workgroup each, the
//   passes a workgroup per tile and, over those tiles, the scan steps).
//
// The cut: the lists hold only segments before the first whose end offset lies below its start
// (both clamped to the count). Offsets that decrease can make later segments overlap earlier ones,
// whose sorts would then race, and more segments than the lists hold (they have room for disjoint
// segments only); before the first decrease the segments are disjoint. Each workgroup finds its
// share's first such segment (kClassifyCut of its row), and lists nothing from there on, nor
// anything at all where a workgroup before it found one.
//
// Tiles are the main tile's, a segment's own (tile.glsl). Nothing here waits for another
// workgroup, and every list entry has one writer, so the lists are the same every run. It binds
// the launch set (launch.glsl), the only set that binds the launch arguments, with the caller's
// offsets at the count binding from word pc.offsetsWord; a segment count read on the GPU comes
// through kBindingSegmentCountIn (segments.glsl).

#include "common.glsl"
#include "tile.glsl"
#include "launch.glsl"
#include "segments.glsl"

// Per class (short, mid-sized, small, large, large tiles): the workgroup's sum, then where its
// next members go.
shared uint s_counts[kClassifyClasses];
shared uint s_least;

uvec2 offsetsOf(uint segment) { return uvec2(countIn[pc.offsetsWord + segment], countIn[pc.offsetsWord + segment + 1u]); }
uvec2 rangeOf(uint segment) {
    uvec2 offsets = offsetsOf(segment);
    return clampedRange(offsets.x, offsets.y);
}

// Whether a segment's end offset lies below its start, both clamped to the count.
bool decreases(uvec2 offsets) { return min(offsets.y, pc.count) < min(offsets.x, pc.count); }

// A segment's share of each class: one in its class (none for a tiny one), and a large one's
// tiles.
void classOf(uvec2 range, out uint c[kClassifyClasses]) {
    uint size = range.y - range.x;
    [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) c[i] = 0u;
    if (size <= pc.tinyMaxCount) return;
    if (size <= pc.shortMaxCount) c[0] = 1u;
    else if (size <= pc.midMaxCount) c[1] = 1u;
    else if (size <= pc.singleMaxCount) c[2] = 1u;
    else {
        c[3] = 1u;
        c[4] = vksortCeilDiv(size, TILE_SIZE);
    }
}

// Adds every invocation's `value` into s_counts and the least of their `least` into s_least (both
// reset first where `fresh`), published by barriers around it; returns s_least. (Taking counts
// back adds their negations: the words wrap.)
uint sumCounts(uint value[kClassifyClasses], uint least, bool fresh) {
    if (fresh && gl_LocalInvocationIndex < kClassifyClasses) s_counts[gl_LocalInvocationIndex] = 0u;
    if (fresh && gl_LocalInvocationIndex == 0u) s_least = kClassifyNoCut;
    barrier();
    [[unroll]] for (uint c = 0u; c < kClassifyClasses; ++c) {
        uint sum = subgroupAdd(value[c]);
        if (subgroupElect() && sum != 0u) atomicAdd(s_counts[c], sum);
    }
    least = subgroupMin(least);
    if (subgroupElect() && least != kClassifyNoCut) atomicMin(s_least, least);
    barrier();
    return s_least;
}

void main() {
    uint workgroup = gl_WorkGroupID.x, invocation = gl_LocalInvocationIndex;
    uint segments = segmentCount();
    uint share = vksortCeilDiv(segments, gl_NumWorkGroups.x);
    uint first = min(workgroup * share, segments);
    uint end = min(first + share, segments);
    uint counts = vksortClassifyCountsOffset(pc.rowStride);
    uint c[kClassifyClasses];
    if ((pc.flags & kFlagClassifyPlaces) == 0u) {
        // Each invocation counts its segments up to its own first decrease; those from the
        // workgroup's first on that it counted are taken back (only where an offset decreases).
        uint mine[kClassifyClasses];
        [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) mine[i] = 0u;
        uint own = kClassifyNoCut;
        for (uint s = first + invocation; s < end; s += gl_WorkGroupSize.x) {
            uvec2 offsets = offsetsOf(s);
            if (decreases(offsets)) {
                own = s;
                break;
            }
            classOf(clampedRange(offsets.x, offsets.y), c);
            [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) mine[i] += c[i];
        }
        uint cut = sumCounts(mine, own, true);
        if (cut != kClassifyNoCut) {
            uint back[kClassifyClasses];
            [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) back[i] = 0u;
            for (uint s = first + invocation; s < min(end, own); s += gl_WorkGroupSize.x) {
                if (s < cut) continue;
                classOf(rangeOf(s), c);
                [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) back[i] -= c[i];
            }
            sumCounts(back, kClassifyNoCut, false);
        }
        if (invocation < kClassifyClasses) tables[counts + kClassifyCounts * workgroup + invocation] = s_counts[invocation];
        if (invocation == 0u) tables[counts + kClassifyCounts * workgroup + kClassifyCut] = cut;
        return;
    }

    // The members of the workgroups before this one, up to the first with a cut (whose members
    // count, later ones' do not: they are taken back, only where an offset decreases).
    uint ownCut = tables[counts + kClassifyCounts * workgroup + kClassifyCut];
    uint before[kClassifyClasses];
    [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) before[i] = 0u;
    uint cutWorkgroup = kClassifyNoCut;
    for (uint w = invocation; w < workgroup; w += gl_WorkGroupSize.x) {
        [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) before[i] += tables[counts + kClassifyCounts * w + i];
        if (cutWorkgroup == kClassifyNoCut && tables[counts + kClassifyCounts * w + kClassifyCut] != kClassifyNoCut) cutWorkgroup = w;
    }
    cutWorkgroup = sumCounts(before, cutWorkgroup, true);
    if (cutWorkgroup < workgroup) {
        uint back[kClassifyClasses];
        [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) back[i] = 0u;
        for (uint w = cutWorkgroup + 1u + invocation; w < workgroup; w += gl_WorkGroupSize.x) {
            [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) back[i] -= tables[counts + kClassifyCounts * w + i];
        }
        sumCounts(back, kClassifyNoCut, false);
    }
    // This share's segments up to its cut, none after an earlier workgroup's.
    end = cutWorkgroup < workgroup ? first : min(end, max(first, ownCut));
    uint next[kClassifyClasses];
    [[unroll]] for (uint i = 0u; i < kClassifyClasses; ++i) next[i] = s_counts[i];
    const uint lists[3] = {vksortShortListOffset(pc.rowStride, pc.maxCount),
                           vksortMidListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount),
                           vksortSingleListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount, pc.shortMaxCount)};
    uint largeList = vksortLargeListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount, pc.shortMaxCount, pc.midMaxCount);
    uint tileMembers = vksortTileMembersOffset(pc.rowStride);
    for (uint chunk = first; chunk < end; chunk += gl_WorkGroupSize.x) {
        uint s = chunk + invocation;
        uvec2 range = s < end ? rangeOf(s) : uvec2(0u);
        classOf(range, c);
        // The classes' places, two to a scan: 16 bits each hold a chunk's members (at most the
        // workgroup size).
        uint pairTotal[2], places[2];
        places[0] = workgroupExclusiveScan(c[0] | (c[1] << 16u), pairTotal[0]);
        barrier(); // (the scan's shared words are reused)
        places[1] = workgroupExclusiveScan(c[2] | (c[3] << 16u), pairTotal[1]);
        barrier();
        uint tileTotal;
        uint firstTile = next[4] + workgroupExclusiveScan(c[4], tileTotal);
        uint place[4] = {places[0] & 0xFFFFu, places[0] >> 16u, places[1] & 0xFFFFu, places[1] >> 16u};
        uint total[4] = {pairTotal[0] & 0xFFFFu, pairTotal[0] >> 16u, pairTotal[1] & 0xFFFFu, pairTotal[1] >> 16u};
        [[unroll]] for (uint i = 0u; i < 3u; ++i) {
            if (c[i] != 0u) {
                uint at = lists[i] + 2u * (next[i] + place[i]);
                tables[at] = range.x;
                tables[at + 1u] = range.y;
            }
        }
        if (c[3] != 0u) {
            uint member = next[3] + place[3];
            uint at = largeList + 3u * member;
            tables[at] = range.x;
            tables[at + 1u] = range.y;
            tables[at + 2u] = firstTile;
            for (uint t = 0u; t < c[4]; ++t) tables[tileMembers + firstTile + t] = member;
        }
        [[unroll]] for (uint i = 0u; i < 4u; ++i) next[i] += total[i];
        next[4] += tileTotal;
        barrier(); // (before the next chunk's scans)
    }
    if (workgroup + 1u == gl_NumWorkGroups.x && invocation == 0u) {
        tables[kInfoShortMembers] = next[0];
        tables[kInfoMidMembers] = next[1];
        tables[kInfoSingleMembers] = next[2];
        tables[kInfoNumTiles] = next[4];
        writeGrid(kLaunchShortArgs, next[0]);
        writeGrid(kLaunchMidArgs, next[1]);
        writeGrid(kLaunchSingleArgs, next[2]);
        writeGrid(kLaunchTileArgs, next[4]);
        writeArgs(kLaunchScanArgs, next[4] == 0u ? 0u : scanWorkgroups(next[4]), 1u);
    }
}
