// SPDX-License-Identifier: MIT
#version 450
// The whole sort in one workgroup, for counts that fit one tile: every pass ranks and exchanges
// the keys (and values) in registers and shared memory, and only the result goes back to memory.
// One dispatch instead of a scan and a reorder per pass, so small counts cost microseconds.
//
// pc.shift is the first pass's lowest bit and pc.endBit the end of the sorted range; the output
// binding is wherever the multi-pass sort would leave its result (see src/program.cpp), which may
// be the input buffer itself: every key is read before any is written.
//
// The merge sort's first step launches a workgroup per chunk of TILE_SIZE keys: workgroup w sorts
// keys [w * TILE_SIZE, (w + 1) * TILE_SIZE) and, without kFlagMapOut, leaves them in sort order
// for the merge step (merge_rank.comp).

#define VKSORT_RESTRICT
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"

void main() {
    uint base = flatWorkgroupIndex() * TILE_SIZE, count = elementCount();
    if (base >= count) return;
    sortInWorkgroup(base, min(count - base, TILE_SIZE));
}
