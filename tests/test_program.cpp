// The program of steps (src/program.cpp) is pure data: its properties are checked here without a
// GPU, for every bit range, both count paths and the indirect program.
#include <catch2/catch.hpp>

#include <string>

#include "program.hpp"

using namespace vksort;

namespace {

ProgramInput input(uint32_t count, uint32_t beginBit, uint32_t endBit, uint32_t keyBits = 32) {
    ProgramInput in;
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

uint32_t countKernel(const Program& p, Kernel kernel) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < p.stepCount; ++i) n += p.steps[i].kind == StepKind::Dispatch && p.steps[i].kernel == kernel;
    return n;
}

// Replays the table rotation: every table a step reads holds the counts of that step's pass,
// written by the step before (the histogram, or the previous pass's reorder, then the scan), and
// every table a reorder adds into was zeroed and not touched since.
void checkTables(const Program& p) {
    enum class State { Garbage, Zeroed, Counts, Scanned };
    State state[kHistogramTables] = {State::Garbage, State::Garbage, State::Garbage};
    uint32_t holds[kHistogramTables] = {};
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kind != StepKind::Dispatch || s.kernel == Kernel::Setup || s.kernel == Kernel::Single) continue;
        const VksortPushConstants& c = s.constants;
        INFO("step " << i << ", pass " << s.pass << ", kernel " << int(s.kernel));
        REQUIRE(c.table < kHistogramTables);
        REQUIRE(c.zeroTable < kHistogramTables);
        CHECK(c.zeroTable != c.table);
        switch (s.kernel) {
        case Kernel::Histogram:
            state[c.table] = State::Counts;
            holds[c.table] = s.pass;
            state[c.zeroTable] = State::Zeroed;
            break;
        case Kernel::Scan:
            CHECK(state[c.table] == State::Counts);
            CHECK(holds[c.table] == s.pass);
            state[c.table] = State::Scanned;
            break;
        case Kernel::Reorder: {
            const bool inlineScan = (c.flags & kFlagInlineScan) != 0;
            CHECK(state[c.table] == (inlineScan ? State::Counts : State::Scanned));
            CHECK(holds[c.table] == s.pass);
            if ((c.flags & kFlagNextHistogram) != 0) {
                REQUIRE(c.nextTable < kHistogramTables);
                CHECK(c.nextTable != c.table);
                CHECK(c.nextTable != c.zeroTable);
                CHECK(state[c.nextTable] == State::Zeroed);
                state[c.nextTable] = State::Counts;
                holds[c.nextTable] = s.pass + 1;
            }
            state[c.zeroTable] = State::Zeroed;
            break;
        }
        default: break;
        }
    }
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
        const Program p = build(input(100000, 0, end));
        INFO("bits 0:" << end);
        uint32_t pass = 0;
        BindingSet lastSet = kSetInPlace;
        for (uint32_t i = 0; i < p.stepCount; ++i) {
            const Step& s = p.steps[i];
            if (s.kernel != Kernel::Reorder) continue;
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
    }
}

TEST_CASE("program: only the first pass has a histogram step; the last step has no barrier", "[program]") {
    for (uint32_t count : {4097u, 100000u, 600000u, 50000000u}) {
        for (bool indirect : {false, true}) {
            ProgramInput in = input(count, 0, 32);
            in.indirect = indirect;
            const Program p = build(in);
            INFO("count " << count << (indirect ? ", indirect" : ""));
            CHECK(countKernel(p, Kernel::Histogram) == 1);
            CHECK(countKernel(p, Kernel::Reorder) == 8);
            for (uint32_t i = 0; i < p.stepCount; ++i) {
                if (p.steps[i].kind == StepKind::Dispatch && p.steps[i].kernel == Kernel::Histogram) {
                    CHECK(p.steps[i].pass == 0);
                }
                const bool last = i + 1 == p.stepCount;
                CHECK((p.steps[i].barrier == Barrier::None) == last);
            }
            checkTables(p);
        }
    }
}

TEST_CASE("program: the scan step runs only past the inline-scan limit", "[program]") {
    const uint32_t tile = 256 * 8;
    const Program few = build(input(kInlineScanMaxTiles * tile, 0, 32));
    CHECK(countKernel(few, Kernel::Scan) == 0);
    for (uint32_t i = 0; i < few.stepCount; ++i) {
        if (few.steps[i].kernel == Kernel::Reorder) CHECK((few.steps[i].constants.flags & kFlagInlineScan) != 0);
    }
    const Program many = build(input(kInlineScanMaxTiles * tile + 1, 0, 32));
    CHECK(countKernel(many, Kernel::Scan) == 8);
    for (uint32_t i = 0; i < many.stepCount; ++i) {
        const Step& s = many.steps[i];
        if (s.kernel == Kernel::Reorder) CHECK((s.constants.flags & kFlagInlineScan) == 0);
        if (s.kernel == Kernel::Scan) CHECK((s.grid.x == kRadix && s.grid.y == 1));
    }
    checkTables(few);
    checkTables(many);
}

TEST_CASE("program: grids past the row limit split into rows", "[program]") {
    ProgramInput in = input(200000 * 2048u, 0, 32);
    in.maxWorkgroupCountX = 65535;
    const Program p = build(in);
    for (uint32_t i = 0; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        if (s.kernel != Kernel::Reorder && s.kernel != Kernel::Histogram) continue;
        CHECK(s.grid.x == 65535);
        CHECK(s.grid.y == 4); // 200000 tiles in rows of 65535
        CHECK(uint64_t(s.grid.x) * s.grid.y >= s.constants.numTiles);
        CHECK(s.constants.numTiles == 200000);
    }
}

TEST_CASE("program: timestamp slots are 1 + 3p, 2 + 3p and 3 + 3p for every path", "[program]") {
    for (uint32_t count : {0u, 1u, 4096u, 4097u, 600000u}) {
        for (bool indirect : {false, true}) {
            for (uint32_t end : {4u, 9u, 32u}) {
                ProgramInput in = input(count, 0, end);
                in.indirect = indirect;
                const Program p = build(in);
                INFO("count " << count << ", bits 0:" << end << (indirect ? ", indirect" : ""));
                const uint32_t passes = (end + 3) / 4;
                CHECK(p.timestampCount == 1 + 3 * passes);
                checkTimestamps(p);
                for (uint32_t i = 0; i < p.stepCount; ++i) {
                    const Step& s = p.steps[i];
                    if (s.kind != StepKind::Dispatch) continue;
                    if (s.kernel == Kernel::Reorder) CHECK(s.firstTimestamp == 3 + 3 * s.pass);
                    if (s.kernel == Kernel::Scan) CHECK(s.firstTimestamp == 2 + 3 * s.pass);
                    if (s.kernel == Kernel::Histogram) CHECK(s.firstTimestamp == 1);
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
    ProgramInput in = input(0, 0, 32);
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
    CHECK(p.steps[1].constants.inlineScanMaxTiles == kInlineScanMaxTiles);
    CHECK(p.steps[1].constants.dispatchWidth == in.maxWorkgroupCountX);
    CHECK(p.steps[1].constants.maxCount == in.maxCount);
    CHECK(p.steps[2].kernel == Kernel::Single);
    CHECK(p.steps[2].argsWord == kInfoSingleArgs);
    // Both paths and every scan are recorded: the setup gives what a count does not need zero
    // workgroups.
    CHECK(countKernel(p, Kernel::Scan) == 8);
    for (uint32_t i = 2; i < p.stepCount; ++i) {
        const Step& s = p.steps[i];
        INFO("step " << i);
        CHECK(s.indirect);
        CHECK((s.constants.flags & kFlagIndirect) != 0);
        if (s.kernel == Kernel::Scan) CHECK(s.argsWord == kInfoScanArgs);
        if (s.kernel == Kernel::Reorder || s.kernel == Kernel::Histogram) CHECK(s.argsWord == kInfoTileArgs);
        if (i + 1 < p.stepCount) CHECK(s.barrier == Barrier::ComputeAndIndirect);
    }
    checkTables(p);
    checkTimestamps(p);
}

TEST_CASE("program: every bit range of 32- and 64-bit keys", "[program]") {
    for (uint32_t keyBits : {32u, 64u}) {
        for (uint32_t begin = 0; begin < keyBits; ++begin) {
            for (uint32_t end = begin + 1; end <= keyBits; ++end) {
                ProgramInput in = input(100000, begin, end, keyBits);
                in.keyFlags = kFlagKeyFloat;
                in.indexValues = true;
                const Program p = build(in);
                const uint32_t passes = (end - begin + 3) / 4;
                REQUIRE(p.stepCount == 1 + passes); // histogram, then a reorder per pass (inline scan)
                uint32_t shift = begin;
                for (uint32_t i = 1; i < p.stepCount; ++i) {
                    const VksortPushConstants& c = p.steps[i].constants;
                    REQUIRE(c.shift == shift);
                    REQUIRE(c.endBit == end);
                    REQUIRE((c.flags & kFlagKeyTypeMask) == kFlagKeyFloat);
                    // Argsort indices are made by the first pass only; the last counts no next pass.
                    REQUIRE(((c.flags & kFlagIndexValues) != 0) == (i == 1));
                    REQUIRE(((c.flags & kFlagNextHistogram) != 0) == (i + 1 < p.stepCount));
                    shift += kDigitBits;
                }
                REQUIRE(shift >= end);
                REQUIRE(shift - kDigitBits < end);
            }
        }
    }
}
