// SPDX-License-Identifier: MIT
#version 450
// A segmented sort's small segments, of more than pc.midMaxCount keys and at most a tile of this
// kernel's (pc.singleMaxCount): workgroup s sorts segment s inside the workgroup, as the
// single-workgroup sort sorts a whole count; smaller segments are segment_tiny.comp's and
// segment_mid.comp's, larger ones segment_pass.comp's. The output binding is wherever the passes
// leave their result, which may be the input buffer itself.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "segments.glsl"

void main() {
    uint segment = flatWorkgroupIndex();
    if (segment >= pc.segmentCount) return;
    uvec2 range = segmentRange(segment);
    uint count = range.y - range.x;
    if (count <= pc.midMaxCount || count > min(pc.singleMaxCount, TILE_SIZE)) return;
    sortInWorkgroup(range.x, count);
}
