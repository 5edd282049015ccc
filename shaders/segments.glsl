// SPDX-License-Identifier: MIT
// vksort GLSL library: the segments of a segmented sort (vksortCmdSortSegments). Included after
// common.glsl by the segmented sort's kernels.
//
// Each of those kernels sorts one size class of segments. With uniform segments the larger classes
// launch a workgroup per segment, which returns at once for a segment of another class; by
// offsets (kFlagSegmentLists) a workgroup per member of their class's list, which the classify
// step (segment_classify.comp) writes after the tiny segments' dispatch. The tiny segments' kernel
// launches a bounded grid, a workgroup per segment up to a limit (src/program.cpp), whose
// workgroups take the segments in batches, as few per batch as spread them over every workgroup
// and at most one per invocation: workgroup w batches w, w + workgroups, and so on
// (segment_tiny.comp). (The larger classes' sorts use subgroup operations, which need every
// invocation of a subgroup together, so they take no batches.)
//
// The tiny segments and the classify step sort segmentCount() segments: pc.segmentCount, or with
// kFlagSegmentCountIn the caller's count read on the GPU, at most pc.segmentCount.
//
// Segment s of a segmented sort is keys [begin, end) of the bound ranges: with pc.segmentSize,
// [s * size, (s + 1) * size); otherwise two of the caller's offsets, which the host binds at
// kBindingTables (push descriptors: the sort reads them in place) from word pc.offsetsWord. Both
// are clamped to the count and end to at least begin, so offsets past the count or decreasing
// never reach outside the ranges; and the classify step lists no segment from the first that
// decreases on (segment_classify.comp), so the segments it lists never overlap.

layout(set = 0, binding = kBindingSegmentCountIn, std430) readonly buffer SegmentCountIn { uint segmentCountIn[]; };

uint segmentCount() {
    if ((pc.flags & kFlagSegmentCountIn) == 0u) return pc.segmentCount;
    return min(segmentCountIn[pc.segmentCountWord], pc.segmentCount);
}

// The caller's segments: the segment of two offsets, clamped.
uvec2 clampedRange(uint begin, uint end) {
    begin = min(begin, pc.count);
    return uvec2(begin, max(begin, min(end, pc.count)));
}

uvec2 segmentRange(uint segment) {
    uint count = pc.count, begin, end;
    if (pc.segmentSize != 0u) {
        // (segment * size can pass 2^32 only for segments that start past the count.)
        begin = segment <= count / pc.segmentSize ? segment * pc.segmentSize : count;
        end = count - begin < pc.segmentSize ? count : begin + pc.segmentSize;
    } else {
        return clampedRange(tables[pc.offsetsWord + segment], tables[pc.offsetsWord + segment + 1u]);
    }
    return uvec2(begin, end);
}

// The classify step's lists (vksort_config.h, "A segmented sorter's tables"): where the short,
// mid-sized and small segments' (begin, end) pairs start, and the large segments' triples.
uint shortListOffset() { return vksortShortListOffset(pc.rowStride, pc.maxCount); }
uint midListOffset() { return vksortMidListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount); }
uint singleListOffset() { return vksortSingleListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount, pc.shortMaxCount); }

// The segment a short, mid-sized or small class's workgroup sorts: with kFlagSegmentLists member
// flatWorkgroupIndex() of the class's list (`members` of them, from `list`), else segment
// flatWorkgroupIndex() if its size lies in (lo, hi]. False: nothing to sort.
bool classRange(uint list, uint members, uint lo, uint hi, out uvec2 range) {
    uint index = flatWorkgroupIndex();
    range = uvec2(0u);
    if ((pc.flags & kFlagSegmentLists) != 0u) {
        if (index >= tables[members]) return false;
        range = uvec2(tables[list + 2u * index], tables[list + 2u * index + 1u]);
        // (The classify step lists only its class's segments: the test keeps a scratch buffer
        // written by anything else from overrunning the tile.)
        return range.y >= range.x && range.y - range.x > lo && range.y - range.x <= hi;
    }
    if (index >= pc.segmentCount) return false;
    range = segmentRange(index);
    uint count = range.y - range.x;
    return count > lo && count <= hi;
}

// Segments per batch of the tiny segments' kernel, of `segments` (segmentCount()), and how many
// batches: batch `batch` starts at segment batch * batchSize(segments) (the host keeps
// segmentCount at most 2^31).
uint launchedWorkgroups() { return gl_NumWorkGroups.x * gl_NumWorkGroups.y; }
uint batchSize(uint segments) {
    return max(1u, min(gl_WorkGroupSize.x, (segments + launchedWorkgroups() - 1u) / launchedWorkgroups()));
}
uint segmentBatches(uint segments) { return (segments + batchSize(segments) - 1u) / batchSize(segments); }
