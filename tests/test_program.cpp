// The program of steps (src/program.cpp) is pure data: its properties are checked here without a
// GPU, for every bit range, both count paths, both offset methods and the indirect program.
#include <catch2/catch.hpp>

#include <string>

#include "program.hpp"

using namespace vksort;

namespace {

ProgramInput input(uint32_t count, uint32_t beginBit, uint32_t endBit, uint32_t keyBits = 32, bool lookBack = true) {
    ProgramInput in;
    in.lookBack = lookBack;
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

// Either method's reorder.
bool isReorder(Kernel kernel) { return kernel == Kernel::Reorder || kernel == Kernel::ReorderScan; }

uint32_t countKernel(const Program& p, Kernel kernel) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p.stepCount; ++i) n += p.steps[i].kind == StepKind::Dispatch && p.steps[i].kernel == kernel;
    return n;
}

// Look-back: the tile-status tables alternate: each reorder uses table pass % 2 and zeroes the
// other for the next pass; the histogram zeroes table 0 for the first.
void checkStatusTables(const Program& p) {
    bool zeroed[kStatusTables] = {false, false};
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kind != StepKind::Dispatch) continue;
        const VksortPushConstants& c = s.constants;
        INFO("step " << i << ", pass " << s.pass << ", kernel " << int(s.kernel));
        if (s.kernel == Kernel::Histogram) zeroed[0] = true;
        if (s.kernel != Kernel::Reorder) continue;
        CHECK((c.flags & (kFlagNextCounts | kFlagInlineScan)) == 0);
        REQUIRE(c.statusTable < kStatusTables);
        CHECK(c.statusTable == s.pass % kStatusTables);
        CHECK(c.pass == s.pass);
        CHECK(zeroed[c.statusTable]);
        // The table the reorder zeroes is the one the next reorder uses.
        REQUIRE(c.nextStatusTable < kStatusTables);
        CHECK(c.nextStatusTable != c.statusTable);
        zeroed[c.statusTable] = false; // used: dirty until the next pass zeroes it
        zeroed[c.nextStatusTable] = true;
    }
}

// Scan: follows what each counts table holds through the program. Pass p's table must hold pass
// p's counts before its scan (or its inline-scanning reorder), and the table a reorder adds the
// next pass's counts into must have been zeroed before it, by a step other than itself.
void checkCountTables(const Program& p) {
    enum State { Dirty, Zero, Counts, Prefixes };
    State state[kCountTables] = {Dirty, Dirty, Dirty};
    uint32_t passOf[kCountTables] = {};
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kind != StepKind::Dispatch) continue;
        const VksortPushConstants& c = s.constants;
        INFO("step " << i << ", pass " << s.pass << ", kernel " << int(s.kernel));
        REQUIRE(c.countTable < kCountTables);
        REQUIRE(c.nextCountTable < kCountTables);
        REQUIRE(c.zeroCountTable < kCountTables);
        CHECK(c.pass == s.pass);
        if (s.kernel == Kernel::TileCounts) {
            CHECK(s.pass == 0);
            CHECK(c.zeroCountTable != c.countTable);
            state[c.countTable] = Counts;
            passOf[c.countTable] = 0;
            state[c.zeroCountTable] = Zero;
        } else if (s.kernel == Kernel::Scan) {
            CHECK(state[c.countTable] == Counts);
            CHECK(passOf[c.countTable] == s.pass);
            state[c.countTable] = Prefixes;
        } else if (s.kernel == Kernel::ReorderScan) {
            const bool inlined = (c.flags & kFlagInlineScan) != 0;
            // Indirect sorts decide on the GPU (the setup's kInfoInlineScan): both states are valid.
            if (!s.indirect) CHECK(state[c.countTable] == (inlined ? Counts : Prefixes));
            CHECK(passOf[c.countTable] == s.pass);
            CHECK(c.zeroCountTable != c.countTable);
            if ((c.flags & kFlagNextCounts) != 0) {
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

void checkTables(const Program& p, bool lookBack) {
    if (lookBack) checkStatusTables(p);
    else checkCountTables(p);
}

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
      for (bool lookBack : {true, false}) {
        const Program p = build(input(100000 + (lookBack ? 0 : 500000), 0, end, 32, lookBack));
        INFO("bits 0:" << end << (lookBack ? ", look-back" : ", scan"));
        uint32_t pass = 0;
        BindingSet lastSet = kSetInPlace;
        for (uint32_t i = 0; i < p.stepCount; ++i) {
            const Step& s = p.steps[i];
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
        CHECK(single.steps[0].kernel == Kernel::Single);
        CHECK(single.steps[0].set == (pass % 2 == 1 ? kSetForward : kSetInPlace));
        CHECK((single.steps[0].constants.flags & (kFlagMapIn | kFlagMapOut)) == (kFlagMapIn | kFlagMapOut));
      }
    }
}

TEST_CASE("program: look-back: a setup and one histogram step, then one reorder per pass; the last step has no "
          "barrier",
          "[program]") {
    for (uint32_t count : {4097u, 100000u, 600000u, 50000000u}) {
        for (bool indirect : {false, true}) {
            ProgramInput in = input(count, 0, 32);
            in.indirect = indirect;
            const Program p = build(in);
            INFO("count " << count << (indirect ? ", indirect" : ""));
            CHECK(countKernel(p, Kernel::Setup) == 1);
            CHECK(countKernel(p, Kernel::Histogram) == 1);
            CHECK(countKernel(p, Kernel::TileCounts) == 0);
            CHECK(countKernel(p, Kernel::Scan) == 0);
            CHECK(countKernel(p, Kernel::Reorder) == 8);
            CHECK(p.steps[indirect ? 1 : 0].kernel == Kernel::Setup);
            for (uint32_t i = 0; i < p.stepCount; ++i) {
                if (p.steps[i].kind == StepKind::Dispatch && p.steps[i].kernel == Kernel::Histogram) {
                    CHECK(p.steps[i].pass == 0);
                }
                const bool last = i + 1 == p.stepCount;
                CHECK((p.steps[i].barrier == Barrier::None) == last);
            }
            checkTables(p, true);
        }
    }
}

TEST_CASE("program: scan: tile counts, then per pass a scan (none for few tiles) and a reorder that counts the "
          "next pass's digits",
          "[program]") {
    for (uint32_t count : {4097u, 100000u, 256u * 2048u, 256u * 2048u + 1u, 600000u, 50000000u}) {
        for (bool indirect : {false, true}) {
            ProgramInput in = input(count, 0, 32, 32, false);
            in.indirect = indirect;
            const Program p = build(in);
            const uint32_t tiles = ceilDiv(count, in.tile.tileSize());
            const bool inlined = !indirect && tiles <= in.inlineScanMaxTiles;
            INFO("count " << count << (indirect ? ", indirect" : "") << ", " << tiles << " tiles");
            // A direct sort by the scan method has nothing for a setup to do.
            CHECK(countKernel(p, Kernel::Setup) == (indirect ? 1 : 0));
            CHECK(countKernel(p, Kernel::Histogram) == 0);
            CHECK(countKernel(p, Kernel::TileCounts) == 1);
            CHECK(countKernel(p, Kernel::Scan) == (inlined ? 0 : 8));
            CHECK(countKernel(p, Kernel::Reorder) == 0);
            CHECK(countKernel(p, Kernel::ReorderScan) == 8);
            for (uint32_t i = 0; i < p.stepCount; ++i) {
                const Step& s = p.steps[i];
                const bool last = i + 1 == p.stepCount;
                CHECK((s.barrier == Barrier::None) == last);
                if (s.kind != StepKind::Dispatch) continue;
                if (s.kernel == Kernel::Scan) {
                    CHECK(s.argsWord == kInfoScanArgs);
                    if (!indirect) CHECK((s.grid.x == vksortScanWorkgroups(tiles) && s.grid.y == 1));
                }
                if (s.kernel == Kernel::ReorderScan) {
                    CHECK(((s.constants.flags & kFlagInlineScan) != 0) == inlined);
                    CHECK(((s.constants.flags & kFlagNextCounts) != 0) == (s.pass + 1 < 8));
                }
                if (s.kernel == Kernel::TileCounts) CHECK(s.argsWord == kInfoTileArgs);
            }
            if (indirect) CHECK(p.steps[1].constants.inlineScanMaxTiles == in.inlineScanMaxTiles);
            checkTables(p, false);
        }
    }
}

TEST_CASE("program: grids past the row limit split into rows", "[program]") {
    ProgramInput in = input(200000 * 2048u, 0, 32);
    in.maxWorkgroupCountX = 10000;
    const Program p = build(in);
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kernel != Kernel::Reorder && s.kernel != Kernel::Histogram) continue;
        INFO("step " << i);
        CHECK(s.constants.numTiles == 200000);
        CHECK(s.grid.x == 10000);
        if (s.kernel == Kernel::Reorder) {
            CHECK(s.grid.y == 20); // 200000 tiles in rows of 10000
        } else {
            // Thousands of tiles: the most tiles per histogram workgroup, 25000 workgroups.
            CHECK(s.constants.histogramTiles == kHistogramMaxTiles);
            CHECK(s.grid.y == 3);
        }
    }
}

TEST_CASE("program: tiles per histogram workgroup grow with the tile count", "[program]") {
    for (uint32_t tiles : {1u, 5u, 1023u, 1024u, 2047u, 2048u, 4100u, 8191u, 8192u, 100000u}) {
        for (bool indirect : {false, true}) {
            ProgramInput in = input(tiles * 2048u, 0, 32);
            in.indirect = indirect;
            in.maxCount = indirect ? tiles * 2048u : in.count;
            const Program p = build(in);
            for (uint32_t i = 0; i < p.stepCount; ++i) {
                const Step& s = p.steps[i];
                if (s.kind != StepKind::Dispatch) continue;
                INFO(tiles << " tiles, " << (indirect ? "indirect" : "direct") << ", step " << i);
                // Every step carries it: the setup turns it into the histogram's indirect grid.
                const uint32_t perGroup = s.constants.histogramTiles;
                CHECK(perGroup == histogramTilesPerWorkgroup(tiles));
                CHECK(perGroup >= 1);
                CHECK(perGroup <= kHistogramMaxTiles);
                if (s.kernel == Kernel::Histogram && !indirect) {
                    CHECK(s.grid.x * s.grid.y == (tiles + perGroup - 1) / perGroup);
                }
            }
        }
    }
}

TEST_CASE("program: timestamp slots are 1 after the histogram (or tile counts) and 2 + p after each reorder, on "
          "every path",
          "[program]") {
    for (uint32_t count : {0u, 1u, 4096u, 4097u, 600000u}) {
        for (bool indirect : {false, true}) {
            for (uint32_t end : {4u, 9u, 32u}) {
              for (bool lookBack : {true, false}) {
                ProgramInput in = input(count, 0, end, 32, lookBack);
                in.indirect = indirect;
                const Program p = build(in);
                INFO("count " << count << ", bits 0:" << end << (indirect ? ", indirect" : "")
                              << (lookBack ? ", look-back" : ", scan"));
                const uint32_t passes = (end + 3) / 4;
                CHECK(p.timestampCount == 2 + passes);
                checkTimestamps(p);
                for (uint32_t i = 0; i < p.stepCount; ++i) {
                    const Step& s = p.steps[i];
                    if (s.kind != StepKind::Dispatch) continue;
                    if (isReorder(s.kernel)) CHECK(s.firstTimestamp == 2 + s.pass);
                    if (s.kernel == Kernel::Scan) CHECK(s.timestampCount == 0); // timed with its reorder
                    if (s.kernel == Kernel::Histogram || s.kernel == Kernel::TileCounts) CHECK(s.firstTimestamp == 1);
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

TEST_CASE("program: the indirect program launches every step from the setup's arguments", "[program]") {
    for (bool lookBack : {true, false}) {
        INFO((lookBack ? "look-back" : "scan"));
        ProgramInput in = input(0, 0, 32, 32, lookBack);
        in.maxCount = 1u << 20;
        in.rowStride = ceilDiv(in.maxCount, in.tile.tileSize());
        in.indirect = true;
        const Program p = build(in);
        REQUIRE(p.stepCount >= 4);
        CHECK(p.steps[0].kind == StepKind::CopyCount);
        CHECK(p.steps[0].barrier == Barrier::TransferToCompute);
        CHECK(p.steps[1].kernel == Kernel::Setup);
        CHECK_FALSE(p.steps[1].indirect);
        CHECK(p.steps[1].constants.singleMaxCount == in.singleMaxCount);
        CHECK(p.steps[1].constants.dispatchWidth == in.maxWorkgroupCountX);
        CHECK(p.steps[1].constants.maxCount == in.maxCount);
        CHECK(p.steps[2].kernel == Kernel::Single);
        CHECK(p.steps[2].argsWord == kInfoSingleArgs);
        CHECK((p.steps[2].constants.flags & (kFlagMapIn | kFlagMapOut)) == (kFlagMapIn | kFlagMapOut));
        // Both paths are recorded: the setup gives the one a count does not take zero workgroups.
        CHECK(countKernel(p, lookBack ? Kernel::Reorder : Kernel::ReorderScan) == 8);
        CHECK(countKernel(p, Kernel::Scan) == (lookBack ? 0 : 8));
        for (uint32_t i = 2; i < p.stepCount; ++i) {
            const Step& s = p.steps[i];
            INFO("step " << i);
            CHECK(s.indirect);
            CHECK((s.constants.flags & kFlagIndirect) != 0);
            if (isReorder(s.kernel) || s.kernel == Kernel::TileCounts) CHECK(s.argsWord == kInfoTileArgs);
            if (s.kernel == Kernel::Histogram) CHECK(s.argsWord == kInfoHistogramArgs);
            if (s.kernel == Kernel::Scan) CHECK(s.argsWord == kInfoScanArgs);
            if (i + 1 < p.stepCount) CHECK(s.barrier == Barrier::ComputeAndIndirect);
        }
        checkTables(p, lookBack);
        checkTimestamps(p);
    }
}

TEST_CASE("program: every bit range of 32- and 64-bit keys", "[program]") {
    for (bool lookBack : {true, false}) {
        for (uint32_t keyBits : {32u, 64u}) {
            for (uint32_t begin = 0; begin < keyBits; ++begin) {
                for (uint32_t end = begin + 1; end <= keyBits; ++end) {
                    ProgramInput in = input(100000, begin, end, keyBits, lookBack);
                    in.keyFlags = kFlagKeyFloat;
                    in.indexValues = true;
                    const Program p = build(in);
                    const uint32_t passes = (end - begin + 3) / 4;
                    // Look-back: setup, histogram, a reorder per pass. Scan (few tiles: inline): tile
                    // counts, a reorder per pass.
                    const uint32_t first = lookBack ? 2 : 1;
                    REQUIRE(p.stepCount == first + passes);
                    REQUIRE(p.steps[first - 1].constants.shift == begin); // the histogram counts every pass
                    REQUIRE(p.steps[first - 1].constants.endBit == end);
                    uint32_t shift = begin;
                    for (uint32_t i = first; i < p.stepCount; ++i) {
                        const VksortPushConstants& c = p.steps[i].constants;
                        REQUIRE(p.steps[i].kernel == (lookBack ? Kernel::Reorder : Kernel::ReorderScan));
                        REQUIRE(c.shift == shift);
                        REQUIRE(c.endBit == end);
                        REQUIRE(c.pass == i - first);
                        REQUIRE((c.flags & kFlagKeyTypeMask) == kFlagKeyFloat);
                        // Argsort indices are made by the first pass only.
                        REQUIRE(((c.flags & kFlagIndexValues) != 0) == (i == first));
                        // Keys travel between passes in sort order: the first pass maps the
                        // caller's keys, the last maps them back.
                        REQUIRE(((c.flags & kFlagMapIn) != 0) == (i == first));
                        REQUIRE(((c.flags & kFlagMapOut) != 0) == (i + 1 == p.stepCount));
                        shift += kDigitBits;
                    }
                    REQUIRE(shift >= end);
                    REQUIRE(shift - kDigitBits < end);
                }
            }
        }
    }
}
