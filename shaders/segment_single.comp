// SPDX-License-Identifier: MIT
#version 450
// A segmented sort's small segments, of more than pc.midMaxCount keys and at most a tile of this
// kernel's (pc.singleMaxCount): each workgroup sorts one (segments.glsl) inside the workgroup, as
// the single-workgroup sort sorts a whole count; smaller segments are segment_tiny.comp's and
// segment_mid.comp's, larger ones take the passes (segment_counts, segment_reorder). The output binding is wherever the passes
// leave their result, which may be the input buffer itself.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "segments.glsl"

void main() {
    uvec2 range;
    if (!classRange(singleListOffset(), kInfoSingleMembers, pc.midMaxCount, min(pc.singleMaxCount, TILE_SIZE), range)) return;
    sortInWorkgroup(range.x, range.y - range.x);
}
