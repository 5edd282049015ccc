// SPDX-License-Identifier: MIT
#version 450
// A segmented sort's short segments, of more than pc.tinyMaxCount keys and at most
// pc.shortMaxCount, the short tile (this kernel's, the tuning row's segments.shortTile): each
// workgroup sorts one (segments.glsl) inside the workgroup, as segment_mid.comp sorts segments up
// to the main tile, on a tile a few times smaller, so that a segment of a few hundred keys fills
// most of its slots and many of its workgroups run at once. The output binding is wherever the
// passes leave their result, which may be the input buffer itself.

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "segments.glsl"

void main() {
    uvec2 range;
    if (!classRange(shortListOffset(), kInfoShortMembers, pc.tinyMaxCount, min(pc.shortMaxCount, TILE_SIZE), range)) return;
    sortInWorkgroup(range.x, range.y - range.x);
}
