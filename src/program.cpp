// SPDX-License-Identifier: MIT
#include "program.hpp"

#include <algorithm>
#include <cstdlib>

namespace vksort {

uint32_t orderFlags(VksortKeyType keyType, VksortOrder order) {
    uint32_t flags = 0;
    switch (keyType) {
    case VKSORT_KEY_TYPE_INT32:
    case VKSORT_KEY_TYPE_INT64: flags = kFlagKeySigned; break;
    case VKSORT_KEY_TYPE_FLOAT32:
    case VKSORT_KEY_TYPE_FLOAT64: flags = kFlagKeyFloat; break;
    default: flags = kFlagKeyUnsigned; break;
    }
    if (order == VKSORT_ORDER_DESCENDING) flags |= kFlagDescending;
    return flags;
}

namespace {

struct Builder {
    const ProgramInput& in;
    Program& out;
    uint32_t nextTimestamp = 0;
    // The passes' tiles (a direct sort's), and their kernels: a segmented sort's large uniform
    // segments take the passes with tiles that start at segment starts (segmentTiles()).
    uint32_t tiles = 0;
    Kernel countsKernel = Kernel::TileCounts;
    Kernel reorderKernel = Kernel::Reorder;

    Step& add(Kernel kernel, uint32_t pass, BindingSet set) {
        if (out.stepCount == kMaxProgramSteps) std::abort(); // (tests/test_program.cpp builds the longest programs)
        Step& s = out.steps[out.stepCount++];
        s = Step{};
        s.kernel = kernel;
        s.pass = pass;
        s.set = set;
        VksortPushConstants& c = s.constants;
        c.count = in.indirect ? 0u : in.count;
        c.numTiles = in.indirect ? 0u : tiles;
        c.rowStride = in.rowStride;
        c.shift = in.passes.shift(pass);
        c.endBit = in.passes.endBit;
        c.flags = in.keyFlags | (in.indirect ? kFlagIndirect : 0u);
        c.maxCount = in.maxCount;
        c.inlineScanMaxTiles = in.scan.inlineMaxTiles;
        c.dispatchWidth = in.maxWorkgroupCountX;
        c.pass = pass;
        c.countTable = pass % kCountTables;
        c.nextCountTable = (pass + 1) % kCountTables;
        // The tile counts zero the table the first reorder adds into; each reorder the one after.
        c.zeroCountTable = (pass + (kernel == countsKernel ? 1 : 2)) % kCountTables;
        if (in.indirect) {
            s.indirect = true;
        } else {
            s.grid = gridFor(c.numTiles, in.maxWorkgroupCountX);
        }
        s.barrier = Barrier::Compute;
        return s;
    }

    // Keys travel between passes in sort order (shaders/common.glsl): the first pass maps the
    // caller's keys; the last pass that runs, which only the GPU knows, maps them back.
    uint32_t mapFlags(uint32_t pass) const { return pass == 0 ? kFlagMapIn : 0u; }

    // Ends the timestamp slots up to `slot` after the last step: a dispatch that does not run
    // still gets its slot, with the time of the one before it, so the query layout is fixed.
    void timestampsThrough(uint32_t slot) {
        Step& last = out.steps[out.stepCount - 1];
        if (last.timestampCount == 0) last.firstTimestamp = nextTimestamp;
        last.timestampCount += slot + 1 - nextTimestamp;
        nextTimestamp = slot + 1;
    }

    // The count the program is planned for: a direct sort's, an indirect sort's capacity (the
    // most it can read).
    uint32_t plannedCount() const { return in.indirect ? in.maxCount : in.count; }

    // The single-workgroup sort's kernel for `keys` keys a workgroup: on the main tile where that
    // holds them (single_main: half the steps per pass).
    Kernel singleKernelFor(uint32_t keys) const { return keys <= in.tile.tileSize() ? Kernel::SingleMain : Kernel::Single; }

    // Whether keys that the passes would sort in workgroups of the main tile (mainTile), or of
    // the single-workgroup sort's, are sorted by comparisons on the latter instead
    // (MergeConfig::chunkSort): from the config's pass count for that tile.
    bool chunksCompared(bool mainTile) const {
        const uint32_t minPasses = mainTile ? in.merge.chunkSortMainMinPasses : in.merge.chunkSortMinPasses;
        return in.merge.chunkSort && minPasses != 0 && in.passes.passCount >= minPasses;
    }
    // A sort of up to `keys` keys in one workgroup: by comparisons where chunksCompared says so,
    // else by passes on the main tile or on the single-workgroup sort's.
    Kernel oneWorkgroupKernel(uint32_t keys) const {
        return chunksCompared(keys <= in.tile.tileSize()) ? Kernel::ChunkSort : singleKernelFor(keys);
    }

    // A sorter variant may run a step's second pipeline or launch it from its own arguments.
    void chooseVariant(Step& step, bool inlineScan) const {
        if (in.variant.chooseStep != nullptr) in.variant.chooseStep(in, inlineScan, &step);
    }

    // The first pass's counts per tile; then per pass a scan of them (none when tiles are few:
    // each reorder sums them itself) and a reorder, which also counts the next pass's digits.
    // An indirect sort plans for its capacity: a count read on the GPU has at most its tiles, so
    // where those are few enough for every reorder to scan inline, no scan step is recorded (the
    // tile counts then find an inline scan for any count).
    // The fields a segmented sort's steps push (shaders/segments.glsl).
    void pushSegments(Step& s) const {
        const SegmentLimits limits = segmentLimits(in.tinyMaxCount, in.shortMaxCount, in.tile.tileSize(), in.singleMaxCount);
        VksortPushConstants& c = s.constants;
        c.singleMaxCount = limits.singleMax;
        c.tinyMaxCount = limits.tinyMax;
        c.shortMaxCount = limits.shortMax;
        c.midMaxCount = limits.midMax;
        c.segmentCount = in.segments.count;
        c.segmentSize = std::min(in.segments.size, in.count);
        c.offsetsWord = in.segments.offsetsWord;
        if (in.segments.countIn) {
            c.flags |= kFlagSegmentCountIn;
            c.segmentCountWord = in.segments.countWord;
        }
    }

    // A segmented sort's passes find each tile's offsets over its segment's tiles (shaders/tile.glsl),
    // take no sorter variant and push the segments: uniform segments (buildSegmentTiles) have
    // `segmentTiles` tiles each, few enough or not for the reorders to sum them inline; those of
    // segments by offsets (`listed`) only the GPU knows, and every step launches from the
    // arguments the classify step wrote, the scan steps over all their tiles.
    void buildPasses(uint32_t indexFlag, uint32_t segmentTiles = 0, bool listed = false) {
        const uint32_t passCount = in.passes.passCount;
        const uint32_t planned = in.indirect ? ceilDiv(in.maxCount, in.tile.tileSize()) : tiles;
        const bool segmented = segmentTiles != 0 || listed;
        const bool inlineScan = !listed && vksortInlineScan(segmented ? segmentTiles : planned, in.scan.inlineMaxTiles);
        auto segmentsOf = [&](Step& s, uint32_t argsWord) {
            if (!segmented) return;
            pushSegments(s);
            if (!listed) return;
            s.indirect = true;
            s.argsWord = argsWord;
            s.constants.numTiles = 0;
            s.constants.flags |= kFlagSegmentLists;
        };
        if (!in.indirect) {
            segmentsOf(add(countsKernel, 0, kSetForward), kLaunchTileArgs);
            timestampsThrough(1);
        }
        for (uint32_t p = 0; p < passCount; ++p) {
            const BindingSet set = p % 2 == 0 ? kSetForward : kSetBackward;
            if (!inlineScan) {
                Step& scan = add(Kernel::Scan, p, set);
                scan.argsWord = kLaunchScanArgs;
                if (!in.indirect) scan.grid = Grid{in.scan.workgroups(planned), 1};
                segmentsOf(scan, kLaunchScanArgs);
                if (!segmented) chooseVariant(scan, inlineScan);
            }
            Step& reorder = add(reorderKernel, p, set);
            reorder.argsWord = kLaunchTileArgs;
            segmentsOf(reorder, kLaunchTileArgs);
            if (!segmented) chooseVariant(reorder, inlineScan);
            reorder.constants.flags |= mapFlags(p);
            if (p == 0) reorder.constants.flags |= indexFlag;
            if (inlineScan && !in.indirect) reorder.constants.flags |= kFlagInlineScan;
            timestampsThrough(2 + p);
        }
    }

    // Uniform segments larger than the single-workgroup sort's (clamped to the count) take the
    // passes of a sort with tiles that start at segment starts (shaders/tile.glsl): the tile counts
    // and reorders of the segmented rows, whose offsets stay within each segment, and the scan
    // steps of a sort, over all tiles, where a segment has more tiles than a reorder sums inline.
    // Their tiles fit the counts tables of every scratch range planned for a segmented sorter
    // (src/plan.hpp, segmentExtraTiles).
    void buildSegmentTiles(uint32_t indexFlag) {
        const uint32_t size = std::min(in.segments.size, in.count);
        const uint32_t tile = in.tile.tileSize();
        const uint32_t segments = std::min(in.segments.count, ceilDiv(in.count, size));
        const uint32_t perSegment = ceilDiv(size, tile);
        tiles = (segments - 1) * perSegment + ceilDiv(std::min(size, in.count - (segments - 1) * size), tile);
        countsKernel = Kernel::SegmentCounts;
        reorderKernel = Kernel::SegmentReorder;
        buildPasses(indexFlag, perSegment);
    }

    // A segmented sort (shaders/segments.glsl) by size class: the tiny segments an invocation
    // per key, in a bounded grid; the short, mid-sized and small ones a workgroup each; the large ones
    // through the passes. Uniform segments larger than one workgroup's sort take the passes alone
    // (buildSegmentTiles); smaller ones are all in one class, which launches a workgroup per
    // segment. By offsets the classify step lists each class's segments after the tiny ones'
    // dispatch, and the later classes launch from what it wrote: a workgroup per member, a
    // workgroup per large segment's tile. A class above the largest segment there can be (the
    // count, or the uniform size) is not recorded. The small classes' results go where the passes
    // leave theirs; the barriers between the dispatches order their accesses to the same
    // bindings (the ranges they write are disjoint).
    void buildSegments(BindingSet singleSet, uint32_t indexFlag) {
        const SegmentLimits limits = segmentLimits(in.tinyMaxCount, in.shortMaxCount, in.tile.tileSize(), in.singleMaxCount);
        const bool listed = in.segments.size == 0;
        const uint32_t largest = listed ? in.count : std::min(in.segments.size, in.count);
        if (!listed && largest > limits.singleMax) {
            buildSegmentTiles(indexFlag);
            out.steps[out.stepCount - 1].barrier = Barrier::None;
            return;
        }
        auto classStep = [&](Kernel kernel, uint32_t argsWord) -> Step& {
            Step& s = add(kernel, 0, singleSet);
            pushSegments(s);
            s.constants.numTiles = 0;
            s.constants.flags |= indexFlag | kFlagMapIn | kFlagMapOut;
            if (listed && kernel != Kernel::SegmentTiny) {
                s.indirect = true;
                s.argsWord = argsWord;
                s.constants.flags |= kFlagSegmentLists;
            } else {
                s.grid = gridFor(in.segments.count, in.maxWorkgroupCountX);
            }
            return s;
        };
        // Uniform segments fill one class, and a shorter last segment perhaps another: only
        // those are recorded. By offsets every class up to the largest segment there can be.
        const uint32_t uniformSegments = listed ? 0 : std::min(in.segments.count, ceilDiv(in.count, largest));
        const uint32_t shortest = listed ? 0 : in.count - (uniformSegments - 1) * largest;
        auto recorded = [&](uint32_t classMin, uint32_t classMax) {
            if (classMax <= classMin) return false; // an empty class
            if (listed) return largest > classMin;
            auto holds = [&](uint32_t size) { return size > classMin && size <= classMax; };
            return holds(largest) || holds(shortest);
        };
        auto last = [&](uint32_t classMax) {
            if (largest > classMax) return false;
            out.steps[out.stepCount - 1].barrier = Barrier::None;
            timestampsThrough(out.timestampCount - 1);
            return true;
        };
        // The tiny segments read the offsets themselves, bound at the tables' binding; the grid
        // launches at most launchThreads invocations.
        if (recorded(0, limits.tinyMax)) {
            Step& tiny = classStep(Kernel::SegmentTiny, 0);
            tiny.offsetsAtTables = listed;
            tiny.grid = gridFor(std::min(in.segments.count, std::max(1u, in.segments.launchThreads / in.tinyMaxCount)),
                                in.maxWorkgroupCountX);
            if (last(limits.tinyMax)) return;
        }
        if (listed) {
            // Two dispatches of at most vksortClassifyWorkgroups (shaders/segment_classify.comp).
            for (uint32_t phase = 0; phase < 2; ++phase) {
                Step& classify = add(Kernel::SegmentClassify, 0, kSetLaunch);
                pushSegments(classify);
                if (phase == 1) classify.constants.flags |= kFlagClassifyPlaces;
                classify.constants.numTiles = 0;
                classify.grid = Grid{std::min(ceilDiv(in.segments.count, in.tile.workgroupSize), vksortClassifyWorkgroups(in.maxCount)), 1};
                if (phase == 1) classify.barrier = Barrier::ComputeAndIndirect;
            }
        }
        const struct {
            Kernel kernel;
            uint32_t classMin, classMax, argsWord;
        } classes[] = {{Kernel::SegmentShort, limits.tinyMax, limits.shortMax, kLaunchShortArgs},
                       {Kernel::SegmentMid, limits.shortMax, limits.midMax, kLaunchMidArgs},
                       {Kernel::SegmentSingle, limits.midMax, limits.singleMax, kLaunchSingleArgs}};
        for (const auto& cls : classes) {
            if (!recorded(cls.classMin, cls.classMax)) continue;
            classStep(cls.kernel, cls.argsWord);
            if (last(cls.classMax)) return;
        }
        countsKernel = Kernel::SegmentListCounts;
        reorderKernel = Kernel::SegmentListReorder;
        buildPasses(indexFlag, 0, true);
        out.steps[out.stepCount - 1].barrier = Barrier::None;
    }

    // An indirect sort's first steps: the count's copy where it is not bound in place, then the
    // tile counts, which read it and write the later steps' launches (the caller sets their grid).
    Step& addLaunch() {
        if (!in.countBound) {
            Step& copy = out.steps[out.stepCount++];
            copy = Step{};
            copy.kind = StepKind::CopyCount;
            copy.barrier = Barrier::TransferToCompute;
        }
        Step& counts = add(Kernel::TileCounts, 0, kSetLaunch);
        counts.indirect = false;
        counts.constants.count = in.countWord;
        counts.constants.singleMaxCount = in.singleMaxCount;
        counts.constants.dispatchWidth = in.maxWorkgroupCountX;
        counts.barrier = Barrier::ComputeAndIndirect;
        return counts;
    }

    // The merge sort: the single-workgroup sort's dispatch sorts each chunk in a workgroup of its
    // own and leaves it in sort order in the other buffer of the pair from where the result
    // belongs (the caller's ranges, in place, for an odd pass count), and the merge step places
    // every key from there. An indirect sort's tile counts, one workgroup, launch both for the
    // count read on the GPU. The chunks are main tiles (single_main: half the steps per pass)
    // where as many as the merge step merges, kMergeChunks, hold the count (an indirect sort's
    // capacity) and the chunks are sorted by passes; else tiles of the single-workgroup sort,
    // sorted by passes or, for enough passes, by comparisons (MergeConfig::chunkSort).
    void buildMergeSort(uint32_t indexFlag) {
        const bool odd = in.passes.passCount % 2 == 1;
        const uint32_t mainTile = in.tile.tileSize();
        const bool mainFits = mainTile < in.merge.chunkKeys && plannedCount() <= kMergeChunks * mainTile;
        const bool compared = chunksCompared(mainFits);
        const bool mainChunks = mainFits && !compared;
        const uint32_t chunkKeys = mainChunks ? mainTile : in.merge.chunkKeys;
        // Wide blocks where the count is known and large (an indirect sort's launch is recorded
        // for any count up to its capacity).
        const bool wide = !in.indirect && in.merge.wideMinCount != 0 && in.count >= in.merge.wideMinCount;
        const uint32_t blocks = ceilDiv(chunkKeys, wide ? in.merge.wideBlockKeys : in.merge.blockKeys);
        if (in.indirect) {
            Step& launch = addLaunch();
            launch.grid = Grid{1, 1};
            launch.constants.flags |= kFlagChunkLaunch;
            launch.constants.singleMaxCount = chunkKeys;
            launch.constants.mergeBlocks = blocks;
        }
        const uint32_t chunks = ceilDiv(in.count, chunkKeys);
        Step& sort = add(compared ? Kernel::ChunkSort : singleKernelFor(chunkKeys), 0, odd ? kSetInPlace : kSetForward);
        sort.constants.flags |= indexFlag | kFlagMapIn;
        sort.argsWord = kLaunchSingleArgs;
        if (!in.indirect) sort.grid = gridFor(chunks, in.maxWorkgroupCountX);
        timestampsThrough(1);
        Step& merge = add(Kernel::MergeRank, 0, odd ? kSetForward : kSetBackward);
        merge.constants.flags |= kFlagMapOut;
        merge.constants.singleMaxCount = chunkKeys;
        if (wide) merge.constants.flags |= kFlagWideBlocks;
        merge.argsWord = kLaunchTileArgs;
        if (!in.indirect) merge.grid = gridFor(chunks * blocks, in.maxWorkgroupCountX);
        merge.barrier = Barrier::None;
        timestampsThrough(out.timestampCount - 1);
    }

    void build() {
        const uint32_t passCount = in.passes.passCount;
        out.stepCount = 0;
        out.timestampCount = 2 + passCount;
        out.leadingTimestamps = 1;
        nextTimestamp = 1;
        // The set that leaves a whole-sort dispatch's result where the passes would leave theirs.
        const BindingSet singleSet = passCount % 2 == 1 ? kSetForward : kSetInPlace;
        const uint32_t indexFlag = in.indexValues ? kFlagIndexValues : 0u;
        // The single-workgroup sort is the first pass and the last at once.
        const uint32_t singleFlags = indexFlag | kFlagMapIn | kFlagMapOut;

        tiles = ceilDiv(in.count, in.tile.tileSize());
        if (!in.indirect && in.count == 0) {
            out.leadingTimestamps = out.timestampCount; // nothing to sort; a profiler still gets its queries
            return;
        }
        if (in.segments.count != 0) {
            buildSegments(singleSet, indexFlag);
            return;
        }
        // A few thousand keys (the rule, and why, in the public header: compareSortMaxCount; an
        // indirect sort by its capacity): the compare sort places every key from the caller's
        // ranges in the scratch copies, and where the passes would leave the result in the
        // caller's ranges (an even pass count) copies it back. An indirect sort's tile counts, one
        // workgroup, read the count and launch both for it: a workgroup per workgroupKeys keys,
        // which the copy launches too (kLaunchSingleArgs; those past the count return at once).
        VksortSorterProperties limits{};
        limits.tileSize = in.tile.tileSize();
        limits.singleDispatchMaxCount = in.singleMaxCount;
        limits.compareSortMaxCount = in.compare.maxCount;
        limits.compareSortShareCount = in.compare.shareCount;
        if (vksortTakesCompareSort(&limits, in.keyType, passCount, plannedCount()) == VK_TRUE) {
            if (in.indirect) {
                Step& launch = addLaunch();
                launch.grid = Grid{1, 1};
                launch.constants.flags |= kFlagChunkLaunch;
                launch.constants.singleMaxCount = in.compare.workgroupKeys;
                launch.constants.mergeBlocks = 1;
            }
            Step& sort = add(Kernel::CompareSort, 0, kSetForward);
            sort.constants.flags |= indexFlag;
            sort.argsWord = kLaunchSingleArgs;
            if (!in.indirect) sort.grid = gridFor(ceilDiv(in.count, in.compare.workgroupKeys), in.maxWorkgroupCountX);
            if (passCount % 2 == 0) {
                Step& copy = add(Kernel::CompareSort, 0, kSetBackward);
                copy.constants.flags |= kFlagCopyBack;
                copy.argsWord = kLaunchSingleArgs;
                if (!in.indirect) copy.grid = gridFor(ceilDiv(in.count, in.compare.workgroupSize), in.maxWorkgroupCountX);
            }
            out.steps[out.stepCount - 1].barrier = Barrier::None;
            timestampsThrough(out.timestampCount - 1);
            return;
        }
        // Up to 16 chunks of a workgroup's sort (the rule in the public header: mergeSortMaxCount;
        // an indirect sort by its capacity). in.merge is the key width's.
        limits.mergeSortMaxCount = limits.mergeSortMaxCount64 = in.merge.maxCount;
        if (vksortTakesMergeSort(&limits, in.keyType, passCount, plannedCount()) == VK_TRUE) {
            buildMergeSort(indexFlag);
            return;
        }
        const Kernel singleKernel = singleKernelFor(plannedCount());
        if (!in.indirect && vksortSingleWorkgroup(in.count, in.singleMaxCount)) {
            Step& single = add(oneWorkgroupKernel(in.count), 0, singleSet);
            single.constants.flags |= singleFlags;
            single.grid = Grid{1, 1};
            single.barrier = Barrier::None;
            timestampsThrough(out.timestampCount - 1);
            return;
        }
        // Indirect sorts: the count is copied into the tables, or bound where it lies, and the tile
        // counts read it and turn it into the launch of every step after them (shaders/launch.glsl;
        // the path a count does not take gets zero workgroups). They launch for the capacity's
        // tiles, and alone write the launch arguments (kSetLaunch), so their barrier alone reaches
        // the indirect launches' reads of them. The single-workgroup sort follows them, then the
        // passes. A capacity that one workgroup sorts records no passes, and one workgroup of tile
        // counts to launch it.
        if (in.indirect) {
            const bool passes = !vksortSingleWorkgroup(in.maxCount, in.singleMaxCount);
            Step& counts = addLaunch();
            counts.grid = passes ? gridFor(ceilDiv(in.maxCount, in.tile.tileSize()), in.maxWorkgroupCountX) : Grid{1, 1};
            Step& single = add(passes ? singleKernel : oneWorkgroupKernel(in.maxCount), 0, singleSet);
            single.constants.flags |= singleFlags;
            single.argsWord = kLaunchSingleArgs;
            if (!passes) {
                single.barrier = Barrier::None;
                timestampsThrough(out.timestampCount - 1);
                return;
            }
            timestampsThrough(1);
        }
        buildPasses(indexFlag);
        out.steps[out.stepCount - 1].barrier = Barrier::None;
    }
};

} // namespace

void buildProgram(const ProgramInput& input, Program* program) {
    Builder{input, *program}.build();
}

} // namespace vksort
