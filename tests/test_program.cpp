// SPDX-License-Identifier: MIT
// The program of steps (src/program.cpp) is pure data: its properties are checked here without a
// GPU, for every bit range, both count paths and the indirect program.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "program.hpp"

using namespace vksort;

namespace {

ProgramInput input(uint32_t count, uint32_t beginBit, uint32_t endBit, uint32_t keyBits = 32) {
    ProgramInput in;
    in.keyType = keyBits == 64 ? VKSORT_KEY_TYPE_UINT64 : VKSORT_KEY_TYPE_UINT32;
    in.scan = ScanConfig{1024, 3072, 256, 16};
    in.tile.workgroupSize = 256;
    in.tile.keysPerThread = 8;
    in.singleMaxCount = 4096;
    in.maxWorkgroupCountX = 65535;
    in.maxCount = count == 0 ? 1 : count;
    in.rowStride = ceilDiv(in.maxCount, in.tile.tileSize());
    std::string reason;
    REQUIRE(planPasses(keyBits, beginBit, endBit, &in.passes, &reason));
    in.count = count;
    return in;
}

Program build(const ProgramInput& in) {
    Program p;
    buildProgram(in, &p);
    return p;
}

bool isReorder(Kernel kernel) { return kernel == Kernel::Reorder; }

// The single-workgroup sort's kernel for a sort of n keys (an indirect sort: its capacity), or
// for the merge sort's chunks of n keys: single_main where the main tile holds them.
Kernel singleKernel(const ProgramInput& in, uint32_t n) {
    return n <= in.tile.tileSize() ? Kernel::SingleMain : Kernel::Single;
}

// Whether the merge sort of n keys (an indirect sort: its capacity) sorts its chunks by
// comparisons: with at least the merge config's pass count for its chunks, the main tile's where
// as many as the merge step merges hold them (kMergeChunks).
bool chunksCompared(const ProgramInput& in, uint32_t n) {
    const bool mainFits = n <= kMergeChunks * in.tile.tileSize();
    const uint32_t minPasses = mainFits ? in.merge.chunkSortMainMinPasses : in.merge.chunkSortMinPasses;
    return in.merge.chunkSort && minPasses != 0 && in.passes.passCount >= minPasses;
}

// The merge sort's chunks for n keys: of the main tile where chunks sorted by passes of it hold
// them, else of the single-workgroup sort's tile.
uint32_t mergeChunkKeys(const ProgramInput& in, uint32_t n) {
    return !chunksCompared(in, n) && n <= kMergeChunks * in.tile.tileSize() ? in.tile.tileSize() : in.singleMaxCount;
}

// The kernel that sorts the merge sort's chunks for n keys.
Kernel chunkKernel(const ProgramInput& in, uint32_t n) {
    return chunksCompared(in, n) ? Kernel::ChunkSort : singleKernel(in, mergeChunkKeys(in, n));
}

uint32_t countKernel(const Program& p, Kernel kernel) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p.stepCount; ++i) n += p.steps[i].kind == StepKind::Dispatch && p.steps[i].kernel == kernel;
    return n;
}

// Follows what each counts table holds through the program. Pass p's table must hold pass
// p's counts before its scan (or its inline-scanning reorder), and the table a reorder adds the
// next pass's counts into must have been zeroed before it, by a step other than itself.
void checkCountTables(const Program& p) {
    enum State { Dirty, Zero, Counts, Prefixes };
    State state[kCountTables] = {Dirty, Dirty, Dirty};
    uint32_t passOf[kCountTables] = {};
    uint32_t passCount = 0;
    // (A segmented sort's tile counts and reorders use the tables as a sort's do.)
    auto plain = [](Kernel k) {
        if (k == Kernel::SegmentCounts || k == Kernel::SegmentListCounts) return Kernel::TileCounts;
        return k == Kernel::SegmentReorder || k == Kernel::SegmentListReorder ? Kernel::Reorder : k;
    };
    for (uint32_t i = 0; i < p.stepCount; ++i) passCount += p.steps[i].kind == StepKind::Dispatch && plain(p.steps[i].kernel) == Kernel::Reorder;
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kind != StepKind::Dispatch) continue;
        const Kernel kernel = plain(s.kernel);
        const VksortPushConstants& c = s.constants;
        INFO("step " << i << ", pass " << s.pass << ", kernel " << int(s.kernel));
        REQUIRE(c.countTable < kCountTables);
        REQUIRE(c.nextCountTable < kCountTables);
        REQUIRE(c.zeroCountTable < kCountTables);
        CHECK(c.pass == s.pass);
        if (kernel == Kernel::TileCounts) {
            CHECK(s.pass == 0);
            CHECK(c.zeroCountTable != c.countTable);
            state[c.countTable] = Counts;
            passOf[c.countTable] = 0;
            state[c.zeroCountTable] = Zero;
        } else if (kernel == Kernel::Scan) {
            CHECK(state[c.countTable] == Counts);
            CHECK(passOf[c.countTable] == s.pass);
            state[c.countTable] = Prefixes;
        } else if (kernel == Kernel::Reorder) {
            const bool inlined = (c.flags & kFlagInlineScan) != 0;
            // Indirect sorts decide on the GPU (vksortInlineScan of the tiles launched): both states are valid.
            if (!s.indirect) CHECK(state[c.countTable] == (inlined ? Counts : Prefixes));
            CHECK(passOf[c.countTable] == s.pass);
            CHECK(c.zeroCountTable != c.countTable);
            // Every reorder but the last recorded one may count the next's digits (the GPU knows
            // whether one follows: passes whose digit never varies do not run).
            if (s.pass + 1 < passCount) {
                CHECK(c.nextCountTable != c.countTable);
                CHECK(c.zeroCountTable != c.nextCountTable);
                CHECK(state[c.nextCountTable] == Zero);
                state[c.nextCountTable] = Counts;
                passOf[c.nextCountTable] = s.pass + 1;
            }
            state[c.countTable] = Dirty;
            state[c.zeroCountTable] = Zero;
        }
    }
}

void checkTables(const Program& p) { checkCountTables(p); }

void checkTimestamps(const Program& p) {
    uint32_t next = p.leadingTimestamps;
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.timestampCount == 0) continue;
        CHECK(s.firstTimestamp == next);
        next = s.firstTimestamp + s.timestampCount;
    }
    CHECK(next == p.timestampCount);
}

} // namespace

TEST_CASE("program: binding sets alternate and an odd pass count ends in scratch", "[program]") {
    for (uint32_t end = 1; end <= 32; ++end) {
      for (uint32_t count : {100000u, 600000u, 50000000u}) {
        const Program p = build(input(count, 0, end));
        INFO("bits 0:" << end << ", count " << count);
        uint32_t pass = 0;
        BindingSet lastSet = kSetInPlace;
        for (uint32_t i = 0; i < p.stepCount; ++i) {
            const Step& s = p.steps[i];
            // A sorter that does not skip constant digits has no deciding pipelines, set or reads.
            CHECK(!s.second);
            if (s.kernel == Kernel::Scan) CHECK(s.set == (s.pass % 2 == 0 ? kSetForward : kSetBackward));
            if (!isReorder(s.kernel)) continue;
            CHECK(s.pass == pass);
            CHECK(s.set == (pass % 2 == 0 ? kSetForward : kSetBackward));
            lastSet = s.set;
            ++pass;
        }
        CHECK(pass == (end + 3) / 4);
        // The forward set writes the scratch copies: the result is there after an odd pass count.
        CHECK((lastSet == kSetForward) == (pass % 2 == 1));
        // The single-workgroup program leaves its result in the same place.
        const Program single = build(input(1000, 0, end));
        REQUIRE(single.stepCount == 1);
        CHECK(single.steps[0].kernel == Kernel::SingleMain);
        CHECK(single.steps[0].set == (pass % 2 == 1 ? kSetForward : kSetInPlace));
        const Program larger = build(input(3000, 0, end));
        REQUIRE(larger.stepCount == 1);
        CHECK(larger.steps[0].kernel == Kernel::Single);
        CHECK((single.steps[0].constants.flags & (kFlagMapIn | kFlagMapOut)) == (kFlagMapIn | kFlagMapOut));
      }
    }
}

TEST_CASE("program: one workgroup sorts by comparisons for the merge config's pass counts, by passes "
          "otherwise, the result where the passes would leave it",
          "[program]") {
    // Comparisons from 5 passes on the single-workgroup sort's tile, from 7 where the main tile
    // (2048 keys) holds the count; an indirect sort by its capacity.
    for (uint32_t keyBits : {32u, 64u}) {
        for (uint32_t end = 1; end <= keyBits; ++end) {
            for (uint32_t count : {1u, 2048u, 2049u, 4096u}) {
                for (bool indirect : {false, true}) {
                    ProgramInput in = input(count, 0, end, keyBits);
                    in.merge = MergeConfig{0, 4096, 256, true, 5, 7};
                    in.indirect = indirect;
                    const Program p = build(in);
                    const uint32_t passes = in.passes.passCount;
                    INFO(keyBits << "-bit keys, bits 0:" << end << ", " << (indirect ? "capacity " : "count ") << count);
                    const Step& sort = p.steps[p.stepCount - 1];
                    const bool compared = passes >= (count <= 2048 ? 7u : 5u);
                    CHECK(sort.kernel == (compared ? Kernel::ChunkSort : singleKernel(in, count)));
                    CHECK(sort.set == (passes % 2 == 1 ? kSetForward : kSetInPlace));
                    CHECK((sort.constants.flags & (kFlagMapIn | kFlagMapOut)) == (kFlagMapIn | kFlagMapOut));
                    CHECK(sort.barrier == Barrier::None);
                    if (indirect) {
                        CHECK(sort.argsWord == kLaunchSingleArgs);
                    } else {
                        REQUIRE(p.stepCount == 1);
                        CHECK((sort.grid.x == 1 && sort.grid.y == 1));
                    }
                    // Without the chunk sort's pipelines, always the passes.
                    in.merge.chunkSort = false;
                    CHECK(build(in).steps[p.stepCount - 1].kernel == singleKernel(in, count));
                }
            }
        }
    }
}

TEST_CASE("program: a direct sort of at most compare.maxCount keys compares every pair, and copies the "
          "result back where the passes would leave it in the caller's ranges, above the main tile",
          "[program]") {
    for (uint32_t keyBits : {32u, 64u}) {
        for (uint32_t end = 1; end <= keyBits; end += 3) {
            for (uint32_t count : {1u, 31u, 32u, 33u, 1000u, 1500u, 2048u, 2049u, 2500u, 4096u, 4097u, 5000u, 5001u}) {
                for (bool index : {false, true}) {
                    ProgramInput in = input(count, 0, end, keyBits);
                    in.compare = CompareConfig{4500, 512, 32, 5000};
                    in.indexValues = index;
                    const Program p = build(in);
                    INFO(keyBits << "-bit keys, bits 0:" << end << ", count " << count << (index ? ", argsort" : ""));
                    checkTimestamps(p);
                    const bool copyBack = in.passes.passCount % 2 == 0;
                    // Fewer passes than the key's take their share of the share count, and none
                    // takes more than the limit.
                    if (count > std::min(4500u, 5000 * in.passes.passCount / (keyBits / 4))) {
                        CHECK(countKernel(p, Kernel::CompareSort) == 0);
                        CHECK(p.steps[0].kernel == (count <= in.singleMaxCount ? singleKernel(in, count) : Kernel::TileCounts));
                        continue;
                    }
                    // A copy back would put a barrier inside a sort that one dispatch on the
                    // main tile does.
                    if (copyBack && count <= in.tile.tileSize()) {
                        REQUIRE(p.stepCount == 1);
                        CHECK(p.steps[0].kernel == singleKernel(in, count));
                        continue;
                    }
                    REQUIRE(p.stepCount == (copyBack ? 2u : 1u));
                    // The sort reads the caller's ranges and writes the scratch copies (the
                    // forward set), placing keys [32w, 32w + 32) in workgroup w.
                    const Step& sort = p.steps[0];
                    CHECK(sort.kernel == Kernel::CompareSort);
                    CHECK(sort.set == kSetForward);
                    CHECK_FALSE(sort.indirect);
                    CHECK((sort.grid.x == ceilDiv(count, 32) && sort.grid.y == 1));
                    CHECK(sort.constants.count == count);
                    CHECK(sort.constants.shift == 0);
                    CHECK(sort.constants.endBit == end);
                    CHECK((sort.constants.flags & kFlagCopyBack) == 0);
                    CHECK(((sort.constants.flags & kFlagIndexValues) != 0) == index);
                    CHECK(sort.barrier == (copyBack ? Barrier::Compute : Barrier::None));
                    if (!copyBack) continue;
                    // The copy reads the scratch copies and writes the caller's ranges (the
                    // backward set), an invocation per key, values as they are.
                    const Step& copy = p.steps[1];
                    CHECK(copy.kernel == Kernel::CompareSort);
                    CHECK(copy.set == kSetBackward);
                    CHECK((copy.grid.x == ceilDiv(count, 512) && copy.grid.y == 1));
                    CHECK(copy.constants.count == count);
                    CHECK((copy.constants.flags & (kFlagCopyBack | kFlagIndexValues)) == kFlagCopyBack);
                    CHECK(copy.barrier == Barrier::None);
                }
            }
        }
    }
    // An indirect sort takes it by its capacity, for any count: its tile counts, one workgroup,
    // read the count and launch a workgroup per 32 keys of it for the sort and for the copy.
    for (uint32_t capacity : {1000u, 2048u, 2049u, 4500u, 4501u}) {
        for (bool bound : {false, true}) {
            for (uint32_t end : {4u, 28u, 32u}) {
                ProgramInput indirect = input(capacity, 0, end);
                indirect.compare = CompareConfig{4500, 512, 32, 5000};
                indirect.indirect = true;
                indirect.countBound = bound;
                const Program p = build(indirect);
                const uint32_t passes = indirect.passes.passCount;
                const bool copyBack = passes % 2 == 0;
                INFO("capacity " << capacity << (bound ? ", count bound" : ", count copied") << ", bits 0:" << end);
                checkTimestamps(p);
                if (capacity > std::min(4500u, 5000 * passes / 8) || (copyBack && capacity <= 2048)) {
                    CHECK(countKernel(p, Kernel::CompareSort) == 0);
                    continue;
                }
                const uint32_t first = bound ? 0u : 1u;
                REQUIRE(p.stepCount == first + (copyBack ? 3u : 2u));
                if (!bound) CHECK(p.steps[0].kind == StepKind::CopyCount);
                const Step& launch = p.steps[first];
                CHECK(launch.kernel == Kernel::TileCounts);
                CHECK(launch.set == kSetLaunch);
                CHECK((launch.grid.x == 1 && launch.grid.y == 1));
                CHECK((launch.constants.flags & (kFlagIndirect | kFlagChunkLaunch)) == (kFlagIndirect | kFlagChunkLaunch));
                CHECK(launch.constants.singleMaxCount == 32);
                CHECK(launch.constants.mergeBlocks == 1);
                CHECK(launch.barrier == Barrier::ComputeAndIndirect);
                const Step& sort = p.steps[first + 1];
                CHECK(sort.kernel == Kernel::CompareSort);
                CHECK(sort.set == kSetForward);
                CHECK(sort.indirect);
                CHECK(sort.argsWord == kLaunchSingleArgs);
                CHECK((sort.constants.flags & (kFlagIndirect | kFlagCopyBack)) == kFlagIndirect);
                CHECK(sort.barrier == (copyBack ? Barrier::Compute : Barrier::None));
                if (!copyBack) continue;
                const Step& copy = p.steps[first + 2];
                CHECK(copy.kernel == Kernel::CompareSort);
                CHECK(copy.set == kSetBackward);
                CHECK(copy.indirect);
                CHECK(copy.argsWord == kLaunchSingleArgs);
                CHECK((copy.constants.flags & (kFlagIndirect | kFlagCopyBack)) == (kFlagIndirect | kFlagCopyBack));
                CHECK(copy.barrier == Barrier::None);
            }
        }
    }
    // Nothing to sort records nothing.
    ProgramInput empty = input(1000, 0, 32);
    empty.count = 0;
    CHECK(build(empty).stepCount == 0);
}

TEST_CASE("program: a direct sort of two passes or more above what one workgroup sorts, up to merge.maxCount "
          "keys (a share of it for fewer passes), sorts chunks in one dispatch and merges them in another, the result where the passes "
          "would leave it",
          "[program]") {
    for (uint32_t keyBits : {32u, 64u}) {
        for (uint32_t end = 1; end <= keyBits; end += 3) {
            for (uint32_t count : {4096u, 4097u, 5000u, 8192u, 8193u, 12288u, 20000u, 32768u, 32769u, 65536u, 65537u}) {
                for (uint32_t variant = 0; variant < 4; ++variant) {
                    const bool index = variant % 2 == 1, compared = variant >= 2;
                    ProgramInput in = input(count, 0, end, keyBits);
                    in.compare = CompareConfig{5000, 512, 32, 5000};
                    // Comparisons from 5 passes, from 7 where main-tile chunks hold the count;
                    // blocks of 256 keys, of 512 from 20000 keys.
                    in.merge = MergeConfig{65536, 4096, 256, compared, 5, 7, 512, 20000};
                    in.indexValues = index;
                    const Program p = build(in);
                    const uint32_t passes = in.passes.passCount, keyPasses = keyBits / 4;
                    INFO(keyBits << "-bit keys, bits 0:" << end << ", count " << count << (index ? ", argsort" : "")
                                 << (compared ? ", chunks by comparisons from 5 and 7 passes" : ""));
                    checkTimestamps(p);
                    // The compare sort goes first.
                    if (count <= 5000 * passes / keyPasses && (passes % 2 == 1 || count > in.tile.tileSize())) {
                        CHECK(p.steps[0].kernel == Kernel::CompareSort);
                        continue;
                    }
                    // One pass is two dispatches already.
                    if (passes < 2 || count <= in.singleMaxCount || count > 65536 * passes / keyPasses) {
                        CHECK(countKernel(p, Kernel::MergeRank) == 0);
                        continue;
                    }
                    REQUIRE(p.stepCount == 2);
                    const bool odd = passes % 2 == 1;
                    const uint32_t chunkKeys = mergeChunkKeys(in, count);
                    const uint32_t chunks = ceilDiv(count, chunkKeys);
                    // The chunks, a workgroup each, stay in sort order in the other buffer of
                    // the pair from where the result belongs: in place for an odd pass count.
                    const Step& sort = p.steps[0];
                    CHECK(sort.kernel == chunkKernel(in, count));
                    CHECK(sort.set == (odd ? kSetInPlace : kSetForward));
                    CHECK((sort.grid.x == chunks && sort.grid.y == 1));
                    CHECK(sort.constants.count == count);
                    CHECK(sort.constants.endBit == end);
                    CHECK((sort.constants.flags & (kFlagMapIn | kFlagMapOut)) == kFlagMapIn);
                    CHECK(((sort.constants.flags & kFlagIndexValues) != 0) == index);
                    CHECK(sort.barrier == Barrier::Compute);
                    // Query 1 after the chunk sort, query 2 (and every later one) after the merge.
                    CHECK((sort.firstTimestamp == 1 && sort.timestampCount == 1));
                    // The merge step, a workgroup per block of each chunk, writes the result.
                    const Step& merge = p.steps[1];
                    const uint32_t block = count >= 20000 ? 512u : 256u;
                    CHECK(merge.kernel == Kernel::MergeRank);
                    CHECK(merge.set == (odd ? kSetForward : kSetBackward));
                    CHECK((merge.grid.x == chunks * (chunkKeys / block) && merge.grid.y == 1));
                    CHECK(merge.constants.count == count);
                    CHECK(merge.constants.singleMaxCount == chunkKeys);
                    CHECK(((merge.constants.flags & kFlagWideBlocks) != 0) == (block == 512u));
                    CHECK(merge.constants.shift == 0);
                    CHECK(merge.constants.endBit == end);
                    CHECK((merge.constants.flags & (kFlagMapIn | kFlagMapOut | kFlagIndexValues)) == kFlagMapOut);
                    CHECK_FALSE(merge.indirect);
                    CHECK(merge.barrier == Barrier::None);
                    CHECK((merge.firstTimestamp == 2 && merge.timestampCount == passes));
                }
            }
        }
    }
    // An indirect sort takes it by its capacity (after the compare sort's rule): the tile counts,
    // one workgroup, read the count and launch the chunk sort and the merge step for it.
    for (uint32_t capacity : {4096u, 4097u, 8192u, 20000u, 65536u, 65537u}) {
        for (uint32_t variant = 0; variant < 4; ++variant) {
            const bool bound = variant % 2 == 1, compared = variant >= 2;
            for (uint32_t end : {4u, 8u, 12u, 32u}) {
                ProgramInput indirect = input(capacity, 0, end);
                indirect.compare = CompareConfig{5000, 512, 32, 5000};
                indirect.merge = MergeConfig{65536, 4096, 256, compared, 5, 7, 512, 20000};
                indirect.indirect = true;
                indirect.countBound = bound;
                const Program p = build(indirect);
                const uint32_t passes = indirect.passes.passCount;
                INFO("capacity " << capacity << (bound ? ", count bound" : ", count copied") << ", bits 0:" << end
                                 << (compared ? ", chunks by comparisons from 5 and 7 passes" : ""));
                checkTimestamps(p);
                const bool compares = capacity <= 5000 * passes / 8 && (passes % 2 == 1 || capacity > 2048);
                if (compares || passes < 2 || capacity <= 4096 || capacity > 65536 * passes / 8) {
                    CHECK(countKernel(p, Kernel::MergeRank) == 0);
                    CHECK(countKernel(p, Kernel::CompareSort) == (compares ? 2u - passes % 2 : 0u));
                    continue;
                }
                const uint32_t first = bound ? 0u : 1u;
                REQUIRE(p.stepCount == first + 3);
                if (!bound) CHECK(p.steps[0].kind == StepKind::CopyCount);
                const Step& launch = p.steps[first];
                CHECK(launch.kernel == Kernel::TileCounts);
                CHECK(launch.set == kSetLaunch);
                CHECK_FALSE(launch.indirect);
                CHECK((launch.grid.x == 1 && launch.grid.y == 1));
                CHECK((launch.constants.flags & (kFlagIndirect | kFlagChunkLaunch)) == (kFlagIndirect | kFlagChunkLaunch));
                const uint32_t chunkKeys = mergeChunkKeys(indirect, capacity);
                CHECK(launch.constants.singleMaxCount == chunkKeys);
                // (Never wide blocks: the launch is recorded for any count up to the capacity.)
                const uint32_t block = 256u;
                CHECK(launch.constants.mergeBlocks == chunkKeys / block);
                CHECK(launch.barrier == Barrier::ComputeAndIndirect);
                const bool odd = passes % 2 == 1;
                const Step& sort = p.steps[first + 1];
                CHECK(sort.kernel == chunkKernel(indirect, capacity));
                CHECK(sort.set == (odd ? kSetInPlace : kSetForward));
                CHECK(sort.indirect);
                CHECK(sort.argsWord == kLaunchSingleArgs);
                CHECK((sort.constants.flags & (kFlagIndirect | kFlagMapIn | kFlagMapOut)) == (kFlagIndirect | kFlagMapIn));
                CHECK(sort.barrier == Barrier::Compute);
                const Step& merge = p.steps[first + 2];
                CHECK(merge.kernel == Kernel::MergeRank);
                CHECK(merge.set == (odd ? kSetForward : kSetBackward));
                CHECK(merge.indirect);
                CHECK(merge.argsWord == kLaunchTileArgs);
                CHECK((merge.constants.flags & (kFlagIndirect | kFlagMapIn | kFlagMapOut)) == (kFlagIndirect | kFlagMapOut));
                CHECK(merge.constants.singleMaxCount == chunkKeys);
                CHECK((merge.constants.flags & kFlagWideBlocks) == 0);
                CHECK(merge.barrier == Barrier::None);
            }
        }
    }
}

TEST_CASE("program: tile counts, then per pass a scan (none for few tiles) and a reorder that counts the "
          "next pass's digits; the last step has no barrier",
          "[program]") {
    for (uint32_t count : {4097u, 100000u, 256u * 2048u, 256u * 2048u + 1u, 600000u, 50000000u}) {
        for (bool indirect : {false, true}) {
            ProgramInput in = input(count, 0, 32, 32);
            in.indirect = indirect;
            const Program p = build(in);
            const uint32_t tiles = ceilDiv(count, in.tile.tileSize());
            // (An indirect sort plans for its capacity, here the count.)
            const bool inlined = tiles <= in.scan.inlineMaxTiles;
            INFO("count " << count << (indirect ? ", indirect" : "") << ", " << tiles << " tiles");
            CHECK(countKernel(p, Kernel::TileCounts) == 1);
            // An indirect sort's one-workgroup sort is recorded, and launched by the tile counts
            // where the count is small.
            CHECK(countKernel(p, Kernel::Single) == (indirect ? 1 : 0));
            CHECK(countKernel(p, Kernel::Scan) == (inlined ? 0 : 8));
            CHECK(countKernel(p, Kernel::Reorder) == 8);
            for (uint32_t i = 0; i < p.stepCount; ++i) {
                const Step& s = p.steps[i];
                const bool last = i + 1 == p.stepCount;
                CHECK((s.barrier == Barrier::None) == last);
                if (s.kind != StepKind::Dispatch) continue;
                if (s.kernel == Kernel::Scan) {
                    CHECK(s.argsWord == kLaunchScanArgs);
                    if (!indirect) CHECK((s.grid.x == in.scan.workgroups(tiles) && s.grid.y == 1));
                }
                if (s.kernel == Kernel::Reorder) {
                    // (An indirect sort's reorders apply the tile counts' rule to the tiles launched.)
                    CHECK(s.constants.inlineScanMaxTiles == in.scan.inlineMaxTiles);
                    CHECK(((s.constants.flags & kFlagInlineScan) != 0) == (inlined && !indirect));
                    CHECK((s.constants.flags & kFlagMapOut) == 0); // the last that runs: the GPU decides
                }
                if (s.kernel == Kernel::TileCounts) {
                    CHECK_FALSE(s.indirect);
                    CHECK(s.set == (indirect ? kSetLaunch : kSetForward));
                    CHECK((s.grid.x == tiles && s.grid.y == 1));
                    CHECK(s.constants.zeroCountTable == s.constants.nextCountTable); // the first reorder adds into it
                }
            }
            if (indirect) CHECK(p.steps[1].constants.inlineScanMaxTiles == in.scan.inlineMaxTiles);
            checkTables(p);
        }
    }
}

TEST_CASE("program: grids past the row limit split into rows", "[program]") {
    ProgramInput in = input(200000 * 2048u, 0, 32);
    in.maxWorkgroupCountX = 10000;
    const Program p = build(in);
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kernel != Kernel::Reorder && s.kernel != Kernel::TileCounts) continue;
        INFO("step " << i);
        CHECK(s.constants.numTiles == 200000);
        CHECK(s.grid.x == 10000);
        CHECK(s.grid.y == 20); // 200000 tiles in rows of 10000
    }
}

TEST_CASE("program: timestamp slots are 1 after the tile counts (and an indirect sort's single sort) and 2 + p after each reorder, on "
          "every path",
          "[program]") {
    for (uint32_t count : {0u, 1u, 4096u, 4097u, 600000u}) {
        for (bool indirect : {false, true}) {
            for (uint32_t end : {4u, 9u, 32u}) {
              for (uint32_t inlineMax : {1024u, 1u}) {
                ProgramInput in = input(count, 0, end, 32);
                in.scan.inlineMaxTiles = inlineMax;
                in.indirect = indirect;
                const Program p = build(in);
                INFO("count " << count << ", bits 0:" << end << (indirect ? ", indirect" : "")
                              << ", inline scan up to " << inlineMax << " tiles");
                const uint32_t passes = (end + 3) / 4;
                CHECK(p.timestampCount == 2 + passes);
                checkTimestamps(p);
                for (uint32_t i = 0; i < p.stepCount; ++i) {
                    const Step& s = p.steps[i];
                    if (s.kind != StepKind::Dispatch) continue;
                    if (isReorder(s.kernel)) CHECK(s.firstTimestamp == 2 + s.pass);
                    if (s.kernel == Kernel::Scan) CHECK(s.timestampCount == 0); // timed with its reorder
                    // (An indirect sort's tile counts are timed with the one-workgroup sort after them.)
                    if (s.kernel == (indirect ? Kernel::Single : Kernel::TileCounts)) CHECK(s.firstTimestamp == 1);
                    if (indirect && s.kernel == Kernel::TileCounts) CHECK(s.timestampCount == 0);
                }
              }
            }
        }
    }
    // Nothing to sort: every query before the (absent) first step.
    const Program empty = build(input(0, 0, 32));
    CHECK(empty.stepCount == 0);
    CHECK(empty.leadingTimestamps == empty.timestampCount);
}

TEST_CASE("program: the indirect program launches every step after the tile counts from their "
          "arguments, and only their barrier reaches the launches",
          "[program]") {
    // 2^20 keys are 512 tiles, which the reorders scan inline (no scan step recorded); 2^24 need
    // scan steps; 4096 keys one workgroup sorts (no pass recorded).
    for (uint32_t capacity : {1u << 20, 1u << 24, 4096u, 1u}) {
        ProgramInput in = input(0, 0, 32, 32);
        in.maxCount = capacity;
        in.rowStride = ceilDiv(in.maxCount, in.tile.tileSize());
        in.indirect = true;
        const Program p = build(in);
        INFO("capacity " << capacity);
        CHECK(p.steps[0].kind == StepKind::CopyCount);
        CHECK(p.steps[0].barrier == Barrier::TransferToCompute);
        // The tile counts launch for the capacity's tiles (one workgroup, to launch the single
        // sort, where it takes every count), read the count from the copy in the tables.
        const bool passes = capacity > in.singleMaxCount;
        const Step& counts = p.steps[1];
        CHECK(counts.kernel == Kernel::TileCounts);
        CHECK(counts.set == kSetLaunch);
        CHECK(counts.barrier == Barrier::ComputeAndIndirect);
        CHECK_FALSE(counts.indirect);
        CHECK(counts.grid.x == (passes ? ceilDiv(capacity, in.tile.tileSize()) : 1));
        CHECK(counts.constants.count == kInfoRequested);
        CHECK((counts.constants.flags & kFlagIndirect) != 0);
        CHECK(counts.constants.singleMaxCount == in.singleMaxCount);
        CHECK(counts.constants.dispatchWidth == in.maxWorkgroupCountX);
        CHECK(counts.constants.maxCount == in.maxCount);
        CHECK(p.steps[2].kernel == singleKernel(in, capacity));
        CHECK(p.steps[2].argsWord == kLaunchSingleArgs);
        CHECK((p.steps[2].constants.flags & (kFlagMapIn | kFlagMapOut)) == (kFlagMapIn | kFlagMapOut));
        // Both paths are recorded where the capacity allows both: the tile counts give the one a
        // count does not take zero workgroups.
        CHECK(p.stepCount == (passes ? 3 + 8 + (capacity > (1u << 21) ? 8 : 0) : 3));
        CHECK(countKernel(p, Kernel::Reorder) == (passes ? 8 : 0));
        CHECK(countKernel(p, Kernel::Scan) == (capacity > (1u << 21) ? 8 : 0));
        for (uint32_t i = 2; i < p.stepCount; ++i) {
            const Step& s = p.steps[i];
            INFO("step " << i);
            CHECK(s.indirect);
            CHECK((s.constants.flags & kFlagIndirect) != 0);
            CHECK((s.constants.flags & kFlagInlineScan) == 0); // the tile counts' choice
            CHECK(s.set != kSetLaunch);
            if (isReorder(s.kernel)) CHECK(s.argsWord == kLaunchTileArgs);
            if (s.kernel == Kernel::Scan) CHECK(s.argsWord == kLaunchScanArgs);
            // Nothing after the tile counts writes the launch arguments.
            CHECK(s.barrier == (i + 1 < p.stepCount ? Barrier::Compute : Barrier::None));
        }
        checkTables(p);
        checkTimestamps(p);
    }
}

TEST_CASE("program: a sorter that skips constant digits launches a direct sort's later passes from "
          "the arguments its first scan step writes; the first pass's steps decide",
          "[program]") {
    for (uint32_t count : {100000u, 50000000u}) {
        for (bool indirect : {false, true}) {
            for (uint32_t end : {4u, 8u, 32u, 64u}) {
                ProgramInput in = input(count, 0, end, end > 32 ? 64 : 32);
                in.indirect = indirect;
                in.variant = sorterVariant(VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT);
                const Program p = build(in);
                const uint32_t tiles = ceilDiv(count, in.tile.tileSize());
                // Only a direct sort with scan steps and more than one pass: with an inline scan, or
                // a count read on the GPU, the steps of passes that do not run return early.
                const bool passArgs = !indirect && tiles > in.scan.inlineMaxTiles && end > 4;
                INFO("count " << count << (indirect ? ", indirect" : "") << ", bits 0:" << end);
                uint32_t passesSeen = 0;
                for (uint32_t i = 0; i < p.stepCount; ++i) {
                    const Step& s = p.steps[i];
                    if (s.kind != StepKind::Dispatch) continue;
                    INFO("step " << i << ", pass " << s.pass);
                    // The arguments the shaders write need the grid width the host would use.
                    CHECK(s.constants.dispatchWidth == in.maxWorkgroupCountX);
                    const bool last = i + 1 == p.stepCount;
                    // The steps that may write the decision (the first scan step, else the first
                    // reorder, and both where the GPU chooses) run their deciding pipelines, bind
                    // the pass arguments through their own set, and only their barriers reach the
                    // uniform reads of them; a direct sort's first reorder after a scan step reads
                    // the decision like the later ones. Only the first scan step's barrier reaches
                    // a direct sort's launches.
                    const bool first = s.pass == 0 && (s.kernel == Kernel::Scan || s.kernel == Kernel::Reorder);
                    const bool inlineScan = !indirect && tiles <= in.scan.inlineMaxTiles;
                    const bool writes = first && (s.kernel == Kernel::Scan || inlineScan || indirect);
                    CHECK(s.second == writes);
                    CHECK((s.set == kSetVariant) == writes);
                    const bool reaches = (passArgs && s.kernel == Kernel::Scan && s.pass == 0) || (indirect && s.kernel == Kernel::TileCounts);
                    if (!last) CHECK((s.barrier == Barrier::ComputeAndIndirect) == reaches);
                    CHECK(s.variantArgs == (passArgs && s.pass > 0));
                    if (s.variantArgs) {
                        CHECK(s.indirect);
                        // A direct sort's count: scan.comp's early return for passes that do not
                        // run is for indirect sorts alone.
                        CHECK((s.constants.flags & kFlagIndirect) == 0);
                        CHECK((s.kernel == Kernel::Scan || s.kernel == Kernel::Reorder));
                        const uint32_t part = s.kernel == Kernel::Scan ? kPassScanArgs : 0u;
                        CHECK(s.argsWord == kPassLaunchOffset + s.pass * kPassArgsStride + part);
                        CHECK(s.argsWord + 3 <= kPassArgsWords);
                    }
                    if (s.kernel == Kernel::Reorder) ++passesSeen;
                }
                CHECK(passesSeen == (end + 3) / 4);
                checkTables(p);
                checkTimestamps(p);
            }
        }
    }
}

TEST_CASE("program: every bit range of 32- and 64-bit keys", "[program]") {
    {
        for (uint32_t keyBits : {32u, 64u}) {
            for (uint32_t begin = 0; begin < keyBits; ++begin) {
                for (uint32_t end = begin + 1; end <= keyBits; ++end) {
                    ProgramInput in = input(100000, begin, end, keyBits);
                    in.keyFlags = kFlagKeyFloat;
                    in.indexValues = true;
                    const Program p = build(in);
                    const uint32_t passes = (end - begin + 3) / 4;
                    // Few tiles (inline scan): the tile counts, a reorder per pass.
                    const uint32_t first = 1;
                    REQUIRE(p.stepCount == first + passes);
                    REQUIRE(p.steps[first - 1].constants.shift == begin); // the first pass's digits
                    REQUIRE(p.steps[first - 1].constants.endBit == end);
                    uint32_t shift = begin;
                    for (uint32_t i = first; i < p.stepCount; ++i) {
                        const VksortPushConstants& c = p.steps[i].constants;
                        REQUIRE(p.steps[i].kernel == Kernel::Reorder);
                        REQUIRE(c.shift == shift);
                        REQUIRE(c.endBit == end);
                        REQUIRE(c.pass == i - first);
                        REQUIRE((c.flags & kFlagKeyTypeMask) == kFlagKeyFloat);
                        // Argsort indices are made by the first pass only.
                        REQUIRE(((c.flags & kFlagIndexValues) != 0) == (i == first));
                        // Keys travel between passes in sort order: the first pass maps the
                        // caller's keys, the last that runs (the GPU decides) maps them back.
                        REQUIRE(((c.flags & kFlagMapIn) != 0) == (i == first));
                        REQUIRE((c.flags & kFlagMapOut) == 0);
                        shift += kDigitBits;
                    }
                    REQUIRE(shift >= end);
                    REQUIRE(shift - kDigitBits < end);
                }
            }
        }
    }
}

TEST_CASE("a segmented sort: a dispatch per size class, by offsets listed by the classify step", "[program]") {
    for (uint32_t end : {4u, 8u, 12u, 32u}) {
        for (uint32_t count : {1u, 64u, 65u, 512u, 513u, 2048u, 2049u, 4096u, 4097u, 1u << 20}) {
            for (uint32_t segments : {1u, 1000u, 70000u}) {
                INFO("bits [0, " << end << "), count " << count << ", segments " << segments);
                ProgramInput in = input(count, 0, end);
                in.tinyMaxCount = 64;
                in.shortMaxCount = 512;
                in.indexValues = true;
                in.segments.count = segments;
                in.segments.size = segments == 1000 ? 77 : 0;
                in.segments.offsetsWord = 3;
                in.segments.launchThreads = 1u << 18;
                // By offsets, the most segments with a segment count read on the GPU.
                in.segments.countIn = segments == 70000;
                in.segments.countWord = 5;
                const Program p = build(in);
                const uint32_t passCount = in.passes.passCount;
                const bool listed = in.segments.size == 0;
                // A class no segment of the count can be in is not recorded. (The short tile, 512
                // keys, and the main tile, 2048, lie between the tiny and single-workgroup limits.)
                // Uniform segments of 77 keys: none above the short class.
                const uint32_t largest = listed ? count : std::min(in.segments.size, count);
                // Uniform segments: the class of their size, and of a shorter last one.
                const uint32_t shortest = listed ? 1 : count - (std::min(segments, ceilDiv(count, largest)) - 1) * largest;
                auto has = [&](uint32_t lo, uint32_t hi) {
                    return listed ? largest > lo : (largest > lo && largest <= hi) || (shortest > lo && shortest <= hi);
                };
                std::vector<Kernel> expected;
                if (has(0, 64)) expected.push_back(Kernel::SegmentTiny);
                if (largest > 64 && listed) expected.insert(expected.end(), 2, Kernel::SegmentClassify);
                if (has(64, 512)) expected.push_back(Kernel::SegmentShort);
                if (has(512, 2048)) expected.push_back(Kernel::SegmentMid);
                if (has(2048, 4096)) expected.push_back(Kernel::SegmentSingle);
                if (largest > 4096) {
                    expected.push_back(Kernel::SegmentListCounts);
                    for (uint32_t pass = 0; pass < passCount; ++pass) {
                        expected.push_back(Kernel::Scan);
                        expected.push_back(Kernel::SegmentListReorder);
                    }
                }
                REQUIRE(p.stepCount == expected.size());
                checkTimestamps(p);
                if (largest > 4096) checkTables(p);
                uint32_t classify = 0;
                for (uint32_t i = 0; i < p.stepCount; ++i) {
                    const Step& s = p.steps[i];
                    INFO("step " << i);
                    CHECK(s.kind == StepKind::Dispatch);
                    CHECK(s.kernel == expected[i]);
                    CHECK(s.offsetsAtTables == (listed && s.kernel == Kernel::SegmentTiny));
                    CHECK(s.constants.segmentCount == segments);
                    CHECK(s.constants.segmentSize == std::min(in.segments.size, count));
                    CHECK(s.constants.offsetsWord == 3);
                    CHECK(((s.constants.flags & kFlagSegmentCountIn) != 0) == in.segments.countIn);
                    CHECK(s.constants.segmentCountWord == (in.segments.countIn ? 5u : 0u));
                    CHECK(s.constants.singleMaxCount == in.singleMaxCount);
                    CHECK(s.constants.tinyMaxCount == in.tinyMaxCount);
                    CHECK(s.constants.shortMaxCount == 512);
                    CHECK(s.constants.midMaxCount == 2048);
                    CHECK(s.constants.count == count);
                    CHECK(s.barrier == (i + 1 == p.stepCount ? Barrier::None
                                        : s.kernel == Kernel::SegmentClassify && classify == 1 ? Barrier::ComputeAndIndirect
                                                                                              : Barrier::Compute));
                    if (s.kernel == Kernel::SegmentTiny) {
                        // At most launchThreads invocations.
                        CHECK(!s.indirect);
                        CHECK(s.grid.y == 1);
                        CHECK(s.grid.x == std::min(segments, (1u << 18) / 64));
                    } else if (s.kernel == Kernel::SegmentClassify) {
                        // The launch set: the offsets at the count binding, the launch arguments
                        // written; at most vksortClassifyWorkgroups, counting then placing.
                        CHECK(s.set == kSetLaunch);
                        CHECK(!s.indirect);
                        CHECK(s.grid.x == std::min(ceilDiv(segments, 256), vksortClassifyWorkgroups(in.maxCount)));
                        CHECK(((s.constants.flags & kFlagClassifyPlaces) != 0) == (classify++ == 1));
                        continue;
                    } else if (!listed) {
                        // A workgroup per segment, in rows past the grid's width.
                        CHECK(!s.indirect);
                        CHECK(uint64_t(s.grid.x) * s.grid.y >= segments);
                        CHECK(s.grid.x <= in.maxWorkgroupCountX);
                    } else {
                        // The classify step's members and tiles.
                        CHECK(s.indirect);
                        CHECK(!s.variantArgs);
                        CHECK((s.constants.flags & kFlagSegmentLists) != 0);
                        CHECK(s.argsWord == (s.kernel == Kernel::SegmentShort    ? kLaunchShortArgs
                                             : s.kernel == Kernel::SegmentMid    ? kLaunchMidArgs
                                             : s.kernel == Kernel::SegmentSingle ? kLaunchSingleArgs
                                             : s.kernel == Kernel::Scan          ? kLaunchScanArgs
                                                                                 : kLaunchTileArgs));
                    }
                    if (s.kernel == Kernel::SegmentTiny || s.kernel == Kernel::SegmentShort || s.kernel == Kernel::SegmentMid ||
                        s.kernel == Kernel::SegmentSingle) {
                        // The small classes' results land where a plain sort's would.
                        CHECK(s.set == (passCount % 2 == 1 ? kSetForward : kSetInPlace));
                        CHECK((s.constants.flags & (kFlagMapIn | kFlagMapOut | kFlagIndexValues)) ==
                              (kFlagMapIn | kFlagMapOut | kFlagIndexValues));
                    } else if (s.kernel == Kernel::SegmentListReorder) {
                        CHECK(s.set == (s.pass % 2 == 0 ? kSetForward : kSetBackward));
                        CHECK(s.constants.shift == s.pass * kDigitBits);
                        CHECK((s.constants.flags & kFlagInlineScan) == 0);
                        CHECK(((s.constants.flags & kFlagMapIn) != 0) == (s.pass == 0));
                        CHECK(((s.constants.flags & kFlagIndexValues) != 0) == (s.pass == 0));
                    }
                }
            }
        }
    }
    // Nothing to sort: no dispatch, every timestamp still written.
    ProgramInput empty = input(0, 0, 32);
    empty.segments.count = 5;
    const Program p = build(empty);
    CHECK(p.stepCount == 0);
    CHECK(p.leadingTimestamps == p.timestampCount);
}

TEST_CASE("a segmented sort: uniform segments above one workgroup take the passes, a tile each from each segment's start", "[program]") {
    const uint32_t tile = 2048;
    for (uint32_t size : {4097u, 50000u, 2048u * 1500u, 1u << 30}) {
        for (uint32_t count : {4097u * 3u, 50000u * 64u, 5000u * 7u + 3u, 1u << 22}) {
            for (uint32_t segments : {1u, 3u, 64u, 1u << 20}) {
                for (uint32_t end : {4u, 32u}) {
                    INFO("size " << size << ", count " << count << ", segments " << segments << ", bits [0, " << end << ")");
                    ProgramInput in = input(count, 0, end);
                    in.tinyMaxCount = 64;
                    in.rowStride += segmentExtraTiles(in.maxCount, in.singleMaxCount);
                    in.segments.count = segments;
                    in.segments.size = size;
                    in.segments.launchThreads = 1u << 18;
                    const Program p = build(in);
                    const uint32_t passCount = in.passes.passCount;
                    const uint32_t clamped = std::min(size, count);
                    // Each segment's tiles, counted one segment at a time.
                    uint32_t tiles = 0, perSegment = ceilDiv(clamped, tile);
                    for (uint32_t s = 0; s < segments && uint64_t(s) * clamped < count; ++s) {
                        tiles += ceilDiv(uint32_t(std::min<uint64_t>(clamped, count - uint64_t(s) * clamped)), tile);
                    }
                    REQUIRE(tiles <= in.rowStride);
                    const bool inlineScan = perSegment <= in.scan.inlineMaxTiles;
                    REQUIRE(p.stepCount == 1 + passCount * (inlineScan ? 1 : 2));
                    CHECK(p.steps[0].kernel == Kernel::SegmentCounts);
                    checkTables(p);
                    checkTimestamps(p);
                    for (uint32_t i = 0; i < p.stepCount; ++i) {
                        const Step& s = p.steps[i];
                        INFO("step " << i);
                        CHECK(!s.indirect);
                        CHECK(!s.second);
                        CHECK(s.constants.numTiles == tiles);
                        CHECK(s.constants.count == count);
                        if (s.kernel == Kernel::Scan) {
                            CHECK(s.grid.x == in.scan.workgroups(tiles));
                            continue;
                        }
                        CHECK((s.kernel == Kernel::SegmentCounts || s.kernel == Kernel::SegmentReorder));
                        CHECK(uint64_t(s.grid.x) * s.grid.y >= tiles);
                        CHECK(s.constants.segmentCount == segments);
                        CHECK(s.constants.segmentSize == clamped);
                        if (s.kernel == Kernel::SegmentReorder) {
                            CHECK(((s.constants.flags & kFlagInlineScan) != 0) == inlineScan);
                            CHECK(s.set == (s.pass % 2 == 0 ? kSetForward : kSetBackward));
                            CHECK(((s.constants.flags & kFlagMapIn) != 0) == (s.pass == 0));
                        }
                        CHECK(s.barrier == (i + 1 == p.stepCount ? Barrier::None : Barrier::Compute));
                    }
                }
            }
        }
    }
}

TEST_CASE("the longest programs fit kMaxProgramSteps", "[program]") {
    // A segmented sort by offsets of 64-bit keys with every class, and an indirect sort with a
    // copy of the count.
    ProgramInput in = input(1u << 20, 0, 64, 64);
    in.tinyMaxCount = 64;
    in.shortMaxCount = 512;
    in.segments.count = 1000;
    in.segments.launchThreads = 1u << 18;
    const Program segmented = build(in);
    CHECK(segmented.stepCount == kMaxProgramSteps);
    ProgramInput indirect = input(1u << 26, 0, 64, 64);
    indirect.indirect = true;
    CHECK(build(indirect).stepCount <= kMaxProgramSteps);
}
