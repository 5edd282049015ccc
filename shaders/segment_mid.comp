// SPDX-License-Identifier: MIT
#version 450
// A segmented sort's mid-sized segments, of more than pc.shortMaxCount keys and at most
// pc.midMaxCount, the main tile (this kernel's): each workgroup sorts one (segments.glsl) inside the workgroup,
// as segment_single.comp sorts the segments up to the larger tile of the single-workgroup sort, in
// half its shared memory and half its invocation steps, so that more of its workgroups run at once.
// The output binding is wherever the passes leave their result, which may be the input buffer
// itself.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "segments.glsl"

void main() {
    uvec2 range;
    if (!classRange(midListOffset(), kInfoMidMembers, pc.shortMaxCount, min(pc.midMaxCount, TILE_SIZE), range)) return;
    sortInWorkgroup(range.x, range.y - range.x);
}
