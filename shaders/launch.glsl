// SPDX-License-Identifier: MIT
// vksort GLSL library: an indirect sort's count, read on the GPU, and the launches it gives every
// later step. The tile counts step, the first dispatch of every indirect sort, reads the caller's
// count where the launch set binds it (kBindingCountIn: the caller's buffer, or the tables'
// copy), clamps it to the bindings' capacity (documented in vksort.h), and its first invocation
// decides between the single-workgroup sort and the passes, and between a scan step and the
// reorders' inline scan, and writes the VkDispatchIndirectCommand of each (vksort_config.h), or
// in the merge or the compare sort's program (kFlagChunkLaunch) a workgroup per chunk of keys and
// blocks per chunk (the chunk sort and the merge step; the compare sort and its copy):
// dispatches of the path not taken, and workgroups past the count, are never launched. Folding
// this into the tile counts saves a dependent dispatch: they launch for the capacity's tiles, and
// each workgroup reads the count itself. Included after tile.glsl by the tile counts step, and for
// the launch set's bindings and writeGrid by a segmented sort's classify step.

// The count: word pc.count of this range (with kFlagIndirect). Without push descriptors the range
// is the tables (binding kBindingTables too), read here only at word kInfoRequested, which the
// tile counts never write.
layout(set = 0, binding = kBindingCountIn, std430) readonly buffer CountIn { uint countIn[]; };
// The launch arguments' range, which only the launch set binds (kBindingLaunchArgs).
layout(set = 0, binding = kBindingLaunchArgs, std430) restrict writeonly buffer LaunchArgs { uint launchArgs[]; };

// The keys and tiles a sort's passes cover (no tiles where the single-workgroup sort takes it).
struct SortSize {
    uint count;
    uint tiles;
};

void writeArgs(uint at, uint x, uint y) {
    launchArgs[at] = x;
    launchArgs[at + 1u] = y;
    launchArgs[at + 2u] = 1u;
}

// The launch of `workgroups` workgroups, in rows.
void writeGrid(uint at, uint workgroups) {
    writeArgs(at, vksortGridWidth(workgroups, pc.dispatchWidth), vksortGridRows(workgroups, pc.dispatchWidth));
}

// A direct sort's size from the push constants; an indirect sort's from the caller's count, with
// the launches of the later steps written by the first invocation of the first workgroup.
SortSize sortSize(bool launcher) {
    if ((pc.flags & kFlagIndirect) == 0u) return SortSize(pc.count, tileCount());
    uint count = min(countIn[pc.count], pc.maxCount);
    if ((pc.flags & kFlagChunkLaunch) != 0u) {
        // A workgroup per chunk of singleMaxCount keys (the chunk sort's, or the compare sort's and
        // its copy's), and mergeBlocks per chunk (the merge step's).
        uint chunks = vksortCeilDiv(count, pc.singleMaxCount);
        if (launcher) {
            tables[kInfoCount] = count;
            writeGrid(kLaunchSingleArgs, chunks);
            writeGrid(kLaunchTileArgs, chunks * pc.mergeBlocks);
        }
        return SortSize(count, 0u);
    }
    uint tiles = vksortCeilDiv(count, TILE_SIZE);
    bool single = vksortSingleWorkgroup(count, pc.singleMaxCount);
    uint passTiles = single ? 0u : tiles;
    if (launcher) {
        tables[kInfoCount] = count;
        tables[kInfoNumTiles] = tiles;
        writeGrid(kLaunchTileArgs, passTiles);
        bool inlined = vksortInlineScan(tiles, pc.inlineScanMaxTiles);
        writeArgs(kLaunchScanArgs, single || inlined ? 0u : scanWorkgroups(tiles), 1u);
        writeArgs(kLaunchSingleArgs, single && count > 0u ? 1u : 0u, 1u);
    }
    return SortSize(count, passTiles);
}
