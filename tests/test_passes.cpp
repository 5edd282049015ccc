// SPDX-License-Identifier: MIT
// Each step of a real program (src/program.hpp) alone, recorded by the library's own recorder,
// against a CPU model of what it must write.
//
// Every test snapshots the keys, values and scratch ranges, computes the bytes they must hold
// afterwards from the model (the layout documented in shaders/vksort_config.h, recomputed here
// rather than taken from the shaders), records just the step, and compares whole ranges: a step
// must write what it owns and not one word more. Untouched table words hold a sentinel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

#include "objects.hpp"
#include "record.hpp"
#include "tuning.hpp"
#include "support.hpp"

namespace {

using vksort::BindingSet;
using vksort::kSetBackward;
using vksort::kSetForward;
using vksort::Kernel;

constexpr uint32_t kSentinel = 0x5EED1E55u;
const uint32_t kRadix = vksort::kRadix;

// One bindings object with host-visible ranges, and views of its scratch as the shaders see it.
struct PassRig {
    PassRig(VksortSorter s, VksortKeyType key, VksortValueType value, uint32_t maxCount)
        : sorter(s), rig(vktest::context(), s, key, value, maxCount), keyType(key), valueType(value) {}

    VksortSorter sorter;
    vktest::BindingsRig rig;
    VksortKeyType keyType;
    VksortValueType valueType;

    const VksortBindings_T& bindings() const { return *rig.bindings(); }
    const vksort::ScratchLayout& layout() const { return bindings().layout; }
    uint32_t tile() const { return sorter->tile.tileSize(); }
    uint32_t keyBytes() const { return vksortKeySize(keyType); }
    uint32_t valueBytes() const { return vksortValueSize(valueType); }

    // Word index, inside the tables region, of the total of `digit` in `pass`.
    static size_t total(uint32_t pass, uint32_t digit) { return vksort::kTotalsOffset + size_t(pass) * kRadix + digit; }
    // The word of range `range`'s prefix (or total) of `digit`.
    static size_t rangeWord(uint32_t range, uint32_t digit) { return vksort::kRangeTotalsOffset + size_t(range) * kRadix + digit; }
    // Tile `tileIndex`'s count of `digit` in counts table `table` (vksort_config.h).
    size_t countWord(uint32_t table, uint32_t tileIndex, uint32_t digit) const {
        return vksort::kTileTablesOffset + (size_t(table) * layout().rowStride + tileIndex) * kRadix + digit;
    }
    // Tile `tileIndex`'s two words of varying bits (vksort_config.h).
    size_t varyingWord(uint32_t tileIndex) const { return vksort::vksortVaryingOffset(layout().rowStride) + 2 * size_t(tileIndex); }
    size_t tableWords() const { return size_t(layout().tablesBytes / 4); }

    // The three ranges as byte vectors: read now, or written back.
    struct Ranges {
        std::vector<uint8_t> keys, values, scratch;
        uint32_t* tables(const vksort::ScratchLayout& l) {
            return reinterpret_cast<uint32_t*>(scratch.data() + l.tablesOffset);
        }
        uint8_t* scratchKeys(const vksort::ScratchLayout& l) { return scratch.data() + l.keysOffset; }
        uint8_t* scratchValues(const vksort::ScratchLayout& l) { return scratch.data() + l.valuesOffset; }
        // The pass arguments (kBindingPassArgs: the passes that run, then the later passes'
        // launches), or the spare range the sets but the deciding one bind.
        uint32_t* passArgs(const vksort::ScratchLayout& l, bool spare) {
            return reinterpret_cast<uint32_t*>(scratch.data() + (spare ? l.spareArgsOffset : l.variantArgsOffset));
        }
    };
    Ranges read() const {
        Ranges r;
        r.keys.assign(rig.keys(), rig.keys() + rig.keysSize());
        if (rig.valuesSize() != 0) r.values.assign(rig.values(), rig.values() + rig.valuesSize());
        r.scratch.assign(rig.scratch(), rig.scratch() + rig.scratchSize());
        return r;
    }
    void write(const Ranges& r) const {
        std::memcpy(rig.keys(), r.keys.data(), r.keys.size());
        if (!r.values.empty()) std::memcpy(rig.values(), r.values.data(), r.values.size());
        std::memcpy(rig.scratch(), r.scratch.data(), r.scratch.size());
    }

    // Records `record` (between host barriers), runs it and waits.
    void run(const std::function<void(VkCommandBuffer)>& record) const {
        vktest::context().submitAndWait([&](VkCommandBuffer cmd) {
            vktest::hostToCompute(cmd);
            record(cmd);
            vktest::computeToHost(cmd);
        });
    }

    // Names a byte of the scratch range the way the layout does, for failure messages.
    std::string whereInScratch(size_t byte) const {
        const vksort::ScratchLayout& l = layout();
        if (byte >= l.tablesOffset && byte < l.tablesOffset + l.tablesBytes) {
            size_t word = (byte - l.tablesOffset) / 4;
            if (word < vksort::kTotalsOffset) return "info word " + std::to_string(word);
            if (word < vksort::kRangeTotalsOffset) {
                size_t t = word - vksort::kTotalsOffset;
                return "total of pass " + std::to_string(t / kRadix) + ", digit " + std::to_string(t % kRadix);
            }
            if (word < vksort::kTileTablesOffset) {
                size_t t = word - vksort::kRangeTotalsOffset;
                return "scan range " + std::to_string(t / kRadix) + ", digit " + std::to_string(t % kRadix);
            }
            size_t w = word - vksort::kTileTablesOffset;
            size_t row = w / kRadix;
            return "status or counts table " + std::to_string(row / l.rowStride) + ", tile " +
                   std::to_string(row % l.rowStride) + ", digit " + std::to_string(w % kRadix);
        }
        if (byte >= l.keysOffset && byte < l.keysOffset + l.keysBytes) {
            return "scratch key " + std::to_string((byte - l.keysOffset) / keyBytes());
        }
        if (l.valuesBytes != 0 && byte >= l.valuesOffset && byte < l.valuesOffset + l.valuesBytes) {
            return "scratch value " + std::to_string((byte - l.valuesOffset) / valueBytes());
        }
        for (uint64_t offset : {l.variantArgsOffset, l.spareArgsOffset}) {
            if (byte >= offset && byte < offset + l.variantArgsBytes) {
                const size_t word = (byte - offset) / 4;
                const std::string range = offset == l.variantArgsOffset ? "pass arguments" : "spare pass arguments";
                if (word < vksort::kPassLaunchOffset) return range + ", passes that run, word " + std::to_string(word);
                const size_t launch = word - vksort::kPassLaunchOffset;
                return range + ", launch of pass " + std::to_string(launch / vksort::kPassArgsStride) + ", word " +
                       std::to_string(launch % vksort::kPassArgsStride);
            }
        }
        return "padding";
    }

    // Compares every range with the expectation; reports the first differing word of each.
    void check(const Ranges& want) const {
        Ranges got = read();
        auto compare = [&](const char* name, const std::vector<uint8_t>& g, const std::vector<uint8_t>& w,
                           const std::function<std::string(size_t)>& where) {
            REQUIRE(g.size() == w.size());
            size_t bad = 0;
            while (bad < g.size() && g[bad] == w[bad]) ++bad;
            if (bad == g.size()) return;
            size_t word = bad / 4 * 4;
            uint32_t gw = 0, ww = 0;
            std::memcpy(&gw, g.data() + word, std::min<size_t>(4, g.size() - word));
            std::memcpy(&ww, w.data() + word, std::min<size_t>(4, w.size() - word));
            FAIL_CHECK(name << " range, byte " << bad << " (" << where(bad) << "): 0x" << std::hex << gw
                            << ", expected 0x" << ww);
        };
        compare("keys", got.keys, want.keys, [&](size_t b) { return "key " + std::to_string(b / keyBytes()); });
        compare("values", got.values, want.values,
                [&](size_t b) { return "value " + std::to_string(b / std::max(1u, valueBytes())); });
        compare("scratch", got.scratch, want.scratch, [&](size_t b) { return whereInScratch(b); });
    }
};

// The digit of a key in the pass whose lowest bit is `shift`: bits [shift, min(shift + 4, end))
// of the order-preserving form (hostdata::sortKey is the CPU model of that form).
uint32_t digitOf(uint64_t key, VksortKeyType type, VksortOrder order, uint32_t shift, uint32_t endBit) {
    return uint32_t(hostdata::sortKey(key, type, order, shift, std::min(shift + vksort::kDigitBits, endBit)));
}

// Per-tile counts of each digit, [digit][tile].
std::vector<std::vector<uint32_t>> tileCounts(const hostdata::Data& input, VksortOrder order, uint32_t shift,
                                              uint32_t endBit, uint32_t tile, uint32_t numTiles) {
    std::vector<std::vector<uint32_t>> counts(kRadix, std::vector<uint32_t>(numTiles, 0));
    for (uint32_t i = 0; i < input.count; ++i) {
        ++counts[digitOf(input.key(i), input.keyType, order, shift, endBit)][i / tile];
    }
    return counts;
}

// What a scan step leaves for `counts` ([digit][tile]) in the tables `w`, by vksort_config.h's
// layout: in counts table `table` each tile's count of each digit within its range of tiles
// (vksortScanRangeTiles), each range's prefix over the ranges where there are several, and the
// pass's digit totals.
void scanModel(const PassRig& rig, const std::vector<std::vector<uint32_t>>& counts, uint32_t numTiles,
               uint32_t table, uint32_t pass, uint32_t* w) {
    const vksort::ScanConfig& scan = rig.sorter->scan;
    const uint32_t rangeTiles = vksort::vksortScanRangeTiles(numTiles, scan.oneRangeMaxTiles, scan.rangeMinTiles);
    for (uint32_t d = 0; d < kRadix; ++d) {
        uint32_t total = 0, inRange = 0;
        for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
            if (tileIndex % rangeTiles == 0) {
                total += inRange;
                inRange = 0;
                if (rangeTiles < numTiles) w[PassRig::rangeWord(tileIndex / rangeTiles, d)] = total;
            }
            w[rig.countWord(table, tileIndex, d)] = inRange;
            inRange += counts[d][tileIndex];
        }
        w[PassRig::total(pass, d)] = total + inRange;
    }
}

// Per tile, the OR of every key in sort order XOR the input's first key (the tile-counts step's
// varying bits).
std::vector<uint64_t> tileVarying(const hostdata::Data& input, VksortOrder order, uint32_t tile, uint32_t numTiles) {
    std::vector<uint64_t> bits(numTiles, 0);
    const uint64_t first = hostdata::sortKey(input.key(0), input.keyType, order, 0, 0);
    for (uint32_t i = 0; i < input.count; ++i) bits[i / tile] |= hostdata::sortKey(input.key(i), input.keyType, order, 0, 0) ^ first;
    return bits;
}

// What deciding the passes that run leaves in the pass arguments `passArgs`, for varying bits
// `bits` over bits [begin, end) (vksort_config.h's rule, checked against a model in
// test_plan.cpp): the passes that run, and the launches for a sort of numTiles tiles with `c`'s
// push constants, with scan steps or (scanSteps false) without: a pass that runs launches every
// tile (and its scan step's workgroups), one that does not launches none.
void expectPassesThatRun(uint32_t* passArgs, uint64_t bits, uint32_t begin, uint32_t end,
                         const vksort::ScanConfig& shape, const vksort::VksortPushConstants& c, uint32_t numTiles,
                         bool scanSteps) {
    const uint32_t lo = uint32_t(bits), hi = uint32_t(bits >> 32);
    const uint32_t running = vksort::vksortRunningPasses(lo, hi, begin, end);
    const uint32_t count = vksort::vksortRunningPassCount(running);
    for (uint32_t r = 0; r < vksort::kMaxPasses; ++r) {
        passArgs[vksort::kPassShift + r] = r < count ? vksort::vksortRunningPassShift(running, begin, r) : begin;
    }
    for (uint32_t word = vksort::kMaxPasses; word < vksort::kPassWords; ++word) {
        passArgs[word] = word == vksort::kPassCount ? count : 0;
    }
    const uint32_t scanGroups = scanSteps ? shape.workgroups(numTiles) : 0;
    for (uint32_t r = 0; r < vksort::kMaxPasses; ++r) {
        uint32_t* args = passArgs + vksort::kPassLaunchOffset + r * vksort::kPassArgsStride;
        const bool runs = r < count;
        args[0] = runs ? vksort::vksortGridWidth(numTiles, c.dispatchWidth) : 0;
        args[1] = vksort::vksortGridRows(numTiles, c.dispatchWidth);
        args[2] = 1;
        args[vksort::kPassScanArgs] = runs ? scanGroups : 0;
        args[vksort::kPassScanArgs + 1] = 1;
        args[vksort::kPassScanArgs + 2] = 1;
    }
}

void fillTables(PassRig::Ranges& r, const PassRig& rig, uint32_t value) {
    uint32_t* t = r.tables(rig.layout());
    std::fill(t, t + rig.tableWords(), value);
}

// Loads `input` into the rig and sets every table word and both pass-argument ranges to
// kSentinel; returns what the rig's ranges then hold, the baseline a pass's expected result is
// built from.
PassRig::Ranges loadWithSentinelTables(PassRig& rig, const hostdata::Data& input) {
    rig.rig.load(input);
    PassRig::Ranges before = rig.read();
    fillTables(before, rig, kSentinel);
    for (bool spare : {false, true}) {
        uint32_t* args = before.passArgs(rig.layout(), spare);
        std::fill(args, args + vksort::kPassArgsWords, kSentinel);
    }
    rig.write(before);
    return before;
}

const vktest::SorterOptions kSmallTiles{16, 4};

// The program the library would record for a direct sort of `count` keys over bits [begin, end).
// `single` off leaves out the single-workgroup path, so that the tile steps exist at any count; the
// compare and merge sorts are always left out (the end-to-end tests sort through them).
vksort::Program realProgram(const PassRig& rig, VksortOrder order, uint32_t begin, uint32_t end, uint32_t count,
                            bool single = false) {
    vksort::PassPlan passes;
    std::string reason;
    REQUIRE(vksort::planPasses(rig.keyBytes() * 8, begin, end, &passes, &reason));
    vksort::ProgramInput in = vksort::programInput(*rig.sorter, rig.bindings(), passes, order, count, false);
    if (!single) in.singleMaxCount = 0;
    in.compare.maxCount = 0;
    in.merge.maxCount = 0;
    vksort::Program program;
    vksort::buildProgram(in, &program);
    return program;
}

const vksort::Step& findStep(const vksort::Program& program, Kernel kernel, uint32_t pass) {
    for (uint32_t i = 0; i < program.stepCount; ++i) {
        if (program.steps[i].kernel == kernel && program.steps[i].pass == pass) return program.steps[i];
    }
    FAIL("the program has no step of kernel " << int(kernel) << " for pass " << pass);
    return program.steps[0];
}

// Records the steps (each followed by its own barrier) between host barriers, runs them, waits.
void runSteps(const PassRig& rig, std::initializer_list<const vksort::Step*> steps) {
    rig.run([&](VkCommandBuffer cmd) {
        for (const vksort::Step* step : steps) vksort::recordStep(cmd, *rig.sorter, rig.bindings(), *step, {});
    });
}

} // namespace

namespace {

struct ReorderVariant {
    VksortKeyType key;
    VksortValueType value;
    VksortOrder order;
    uint32_t beginBit, endBit;
};

// The bytes of `data`'s keys as a reorder reads or writes them: the caller's bit patterns, or
// (between passes) in sort order, hostdata::sortKey over all their bits (shaders/common.glsl).
std::vector<uint8_t> storedKeys(const hostdata::Data& data, VksortOrder order, bool callers) {
    if (callers) return data.keys;
    const uint32_t kb = vksortKeySize(data.keyType);
    std::vector<uint8_t> out(data.keys.size());
    for (uint32_t i = 0; i < data.count; ++i) {
        const uint64_t ordered = hostdata::sortKey(data.key(i), data.keyType, order, 0, 0);
        std::memcpy(out.data() + size_t(i) * kb, &ordered, kb); // (little-endian, as the GPU's words)
    }
    return out;
}

// The stable partition of `input` by the digit of bits [shift, min(shift + 4, endBit)): for each
// output position, the input position it comes from.
std::vector<uint32_t> stablePartition(const hostdata::Data& input, VksortOrder order, uint32_t shift, uint32_t endBit) {
    std::vector<uint32_t> from(input.count);
    std::iota(from.begin(), from.end(), 0u);
    std::stable_sort(from.begin(), from.end(), [&](uint32_t a, uint32_t b) {
        return digitOf(input.key(a), input.keyType, order, shift, endBit) <
               digitOf(input.key(b), input.keyType, order, shift, endBit);
    });
    return from;
}

// One reorder step of a real program, on generated input loaded where the step reads it, and
// what a pass must write: the step's input in `before` (its output side keeps the rig's canary
// bytes; the tables are the caller's to fill), and partitioned() for the expected ranges.
struct ReorderCase {
    PassRig rig;
    vksort::Step step;
    hostdata::Data input;
    PassRig::Ranges before;
    uint32_t tile, numTiles;
    VksortOrder order;
    bool index; // an argsort's first pass: the step makes the values
    bool mapIn, mapOut; // the step reads the caller's keys, writes the caller's keys (else in sort order)

    ReorderCase(VksortSorter s, const ReorderVariant& v, Kernel kernel, uint32_t count, uint32_t capacity,
                uint32_t pass, uint64_t seed)
        : rig(s, v.key, v.value, capacity), tile(s->tile.tileSize()), numTiles((count + tile - 1) / tile),
          order(v.order) {
        step = findStep(realProgram(rig, v.order, v.beginBit, v.endBit, count), kernel, pass);
        index = (step.constants.flags & vksort::kFlagIndexValues) != 0;
        mapIn = (step.constants.flags & vksort::kFlagMapIn) != 0;
        // Every pass runs in these cases (the tables say so): the last one maps the keys back.
        mapOut = step.pass + 1 == (v.endBit - v.beginBit + vksort::kDigitBits - 1) / vksort::kDigitBits;
        // Few distinct keys make long digit runs that cross destination tiles; uniform keys
        // spread every tile over all 16 digits.
        const hostdata::Distribution dist = (seed + seed / 4) % 2 == 0 ? vktest::dist(hostdata::Distribution::Few, 50)
                                                                      : vktest::dist(hostdata::Distribution::Uniform);
        // Past the first pass an argsort's values are ordinary 32-bit payloads.
        const VksortValueType moved = v.value == VKSORT_VALUE_TYPE_INDEX && !index ? VKSORT_VALUE_TYPE_UINT32 : v.value;
        input = hostdata::generate(v.key, moved, count, dist, seed);
        if (index) input.values.assign(size_t(count) * 4, 0xCD); // made by the pass: the input holds garbage
        before = rig.read();
        const vksort::ScratchLayout& l = rig.layout();
        uint8_t* keys = forward() ? before.keys.data() : before.scratchKeys(l);
        uint8_t* values = forward() ? before.values.data() : before.scratchValues(l);
        const std::vector<uint8_t> stored = storedKeys(input, order, mapIn);
        std::memcpy(keys, stored.data(), stored.size());
        if (rig.valueBytes() != 0) std::memcpy(values, input.values.data(), input.values.size());
    }

    // Whether the step reads the caller's ranges and writes the scratch copies (the deciding set
    // is the forward one with the pass arguments bound).
    bool forward() const { return step.set == kSetForward || step.set == vksort::kSetVariant; }

    // `before` with the input's stable partition by this pass's digit written where the step
    // writes, and `from` (if given) the partition itself.
    PassRig::Ranges partitioned(std::vector<uint32_t>* from = nullptr) const {
        const vksort::VksortPushConstants& c = step.constants;
        const std::vector<uint32_t> source = stablePartition(input, order, c.shift, c.endBit);
        const vksort::ScratchLayout& l = rig.layout();
        const uint32_t kb = rig.keyBytes(), vb = rig.valueBytes();
        PassRig::Ranges want = before;
        const std::vector<uint8_t> stored = storedKeys(input, order, mapOut);
        uint8_t* keys = forward() ? want.scratchKeys(l) : want.keys.data();
        uint8_t* values = forward() ? want.scratchValues(l) : want.values.data();
        for (uint32_t j = 0; j < input.count; ++j) {
            const uint32_t i = source[j];
            std::memcpy(keys + size_t(j) * kb, stored.data() + size_t(i) * kb, kb);
            if (index) std::memcpy(values + size_t(j) * 4, &i, 4);
            else if (vb != 0) std::memcpy(values + size_t(j) * vb, input.values.data() + size_t(i) * vb, vb);
        }
        if (from != nullptr) *from = source;
        return want;
    }
};

} // namespace

namespace {

// What the tile-counts step leaves in `want`'s tables: each tile's counts in its counts table, the
// table the first reorder adds into zeroed, and the scan ticket zeroed (in a direct sort, which
// writes no launches). Returns the tables' words.
template <typename Counts>
uint32_t* expectTileCounts(const PassRig& rig, const vksort::VksortPushConstants& c, const Counts& counts,
                           const std::vector<uint64_t>& varying, uint32_t numTiles, PassRig::Ranges* want) {
    uint32_t* w = want->tables(rig.layout());
    w[vksort::kInfoScanTicket] = 0;
    for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
        if (((rig.sorter->flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) != 0)) { // (only the _skip variant finds the varying bits)
            w[rig.varyingWord(tileIndex)] = uint32_t(varying[tileIndex]);
            w[rig.varyingWord(tileIndex) + 1] = uint32_t(varying[tileIndex] >> 32);
        }
        for (uint32_t digit = 0; digit < kRadix; ++digit) {
            w[rig.countWord(c.countTable, tileIndex, digit)] = counts[digit][tileIndex];
            w[rig.countWord(c.zeroCountTable, tileIndex, digit)] = 0;
        }
    }
    return w;
}

} // namespace

TEST_CASE("tile counts and scan steps alone: tile-major counts, prefixes by range, totals", "[passes]") {
    // The counts tables' layout is the shaders' alone (the host never reads them), so these steps
    // are checked against vksort_config.h's: the tile-counts step writes each tile's 16 counts of
    // the first pass into counts table 0 and zeroes table 1 (and the scan's ticket); the scan
    // turns each digit's counts into exclusive prefixes within each range of tiles, each range's
    // totals into prefixes over the ranges, and writes the pass's digit totals (scanModel). Tiles
    // of 64 keys give more tiles than the sorter's inline limit, so the program has a scan step: one
    // range (a workgroup per digit), and past the row's one-range limit several ranges, the last
    // one short (a workgroup per range, the last to finish scanning the ranges).
  // A sorter that runs every pass, and one that skips constant digits (its _skip variants also
  // find the varying bits and decide which passes run).
  for (bool skip : {false, true}) {
    vktest::SorterOptions options{16, 4};
    options.skipPasses = skip;
    VksortSorter s = vktest::sorter(options);
    const uint32_t tile = s->tile.tileSize();
    uint32_t n = 0;
    const vksort::ScanConfig& shape = s->scan;
    const uint32_t inlineMax = shape.inlineMaxTiles;
    const uint32_t scanWidth = vksort::tuningFor(s->deviceInfo.facts).scan.workgroupSize;
    // One range; ranges of the row's smallest range, the last short; and 64 ranges of more tiles
    // than the scan workgroup is wide (chunks carried within a range; the last workgroup scans 1024
    // range totals), the last only for u32 keys ascending, as it is large.
    const uint32_t sizes[] = {(inlineMax + 40) * tile + 9, (shape.oneRangeMaxTiles + 700) * tile + 3,
                               (vksort::kScanRanges * scanWidth + 200) * tile + 1};
    for (uint32_t count : sizes) {
        const uint32_t numTiles = (count + tile - 1) / tile;
        REQUIRE((count == sizes[0]) == (shape.ranges(numTiles) == 1));
        if (count == sizes[2]) {
            REQUIRE(shape.ranges(numTiles) > 16);
            REQUIRE(vksort::vksortScanRangeTiles(numTiles, shape.oneRangeMaxTiles, shape.rangeMinTiles) > scanWidth); // wider than any scan workgroup
        }
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_FLOAT64}) {
            for (VksortOrder order : {VKSORT_ORDER_ASCENDING, VKSORT_ORDER_DESCENDING}) {
                if (count == sizes[2] && (skip || key != VKSORT_KEY_TYPE_UINT32 || order != VKSORT_ORDER_ASCENDING)) continue;
                ++n;
                INFO("tile " << tile << ", key " << hostdata::toString(key)
                             << (order == VKSORT_ORDER_ASCENDING ? ", asc" : ", desc") << ", count " << count << " ("
                             << numTiles << " tiles)");
                // A capacity above the count: the words of tiles past it stay untouched.
                PassRig rig(s, key, VKSORT_VALUE_TYPE_NONE, count + 3 * tile);
                const vksort::Program program = realProgram(rig, order, 0, hostdata::keyBits(key), count);
                const vksort::Step& counting = findStep(program, Kernel::TileCounts, 0);
                const vksort::Step& scan = findStep(program, Kernel::Scan, 0);
                const vksort::VksortPushConstants& c = counting.constants;
                REQUIRE(scan.constants.countTable == c.countTable);
                hostdata::Data input = hostdata::generate(key, VKSORT_VALUE_TYPE_NONE, count,
                                                          n % 2 == 0 ? vktest::dist(hostdata::Distribution::Few, 7)
                                                                     : vktest::dist(hostdata::Distribution::Uniform),
                                                          500 + n);
                PassRig::Ranges before = loadWithSentinelTables(rig, input);
                const auto counts = tileCounts(input, order, c.shift, c.endBit, tile, numTiles);

                const std::vector<uint64_t> varying = tileVarying(input, order, tile, numTiles);
                runSteps(rig, {&counting});
                PassRig::Ranges want = before;
                uint32_t* w = expectTileCounts(rig, c, counts, varying, numTiles, &want);
                rig.check(want);

                // A skipping sorter's first scan step also decides which passes run: from every
                // tile's varying bits, through each range's where there are several, in its
                // deciding pipeline and through the set that binds the pass arguments.
                REQUIRE(scan.second == ((s->flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) != 0));
                REQUIRE((scan.set == vksort::kSetVariant) == ((s->flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) != 0));
                runSteps(rig, {&scan});
                scanModel(rig, counts, numTiles, c.countTable, scan.pass, w);
                if (!((s->flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) != 0)) {
                    rig.check(want);
                    continue;
                }
                uint64_t all = 0;
                const uint32_t rangeTiles = vksort::vksortScanRangeTiles(numTiles, shape.oneRangeMaxTiles, shape.rangeMinTiles);
                for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) all |= varying[tileIndex];
                for (uint32_t range = 0; rangeTiles < numTiles && range * rangeTiles < numTiles; ++range) {
                    uint64_t bits = 0;
                    for (uint32_t t = range * rangeTiles; t < std::min(numTiles, (range + 1) * rangeTiles); ++t) bits |= varying[t];
                    w[vksort::kRangeVaryingOffset + 2 * range] = uint32_t(bits);
                    w[vksort::kRangeVaryingOffset + 2 * range + 1] = uint32_t(bits >> 32);
                }
                expectPassesThatRun(want.passArgs(rig.layout(), false), all, c.shift, c.endBit, shape, scan.constants, numTiles, true);
                rig.check(want);

                // A later pass's scan step (launched from the pass arguments) scans its own
                // table and decides nothing: with every tile's varying bits cleared, a step that
                // decided would rewrite the decision (every pass runs, set here) and the ranges'
                // varying bits.
                const vksort::Step& later = findStep(program, Kernel::Scan, 1);
                REQUIRE(!later.second);
                REQUIRE(later.variantArgs);
                expectPassesThatRun(want.passArgs(rig.layout(), false), ~uint64_t(0), c.shift, c.endBit, shape,
                                    scan.constants, numTiles, true);
                for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
                    w[rig.varyingWord(tileIndex)] = w[rig.varyingWord(tileIndex) + 1] = 0;
                    for (uint32_t d = 0; d < kRadix; ++d) {
                        w[rig.countWord(later.constants.countTable, tileIndex, d)] = counts[d][tileIndex];
                    }
                }
                rig.write(want);
                runSteps(rig, {&later});
                scanModel(rig, counts, numTiles, later.constants.countTable, later.pass, w);
                rig.check(want);
            }
        }
    }
  }
    vktest::requireCleanValidation();
}

TEST_CASE("tile counts past the 4-bit counters: 16 and 32 keys per invocation, whole and partial tiles", "[passes]") {
    // tile_counts.comp counts each invocation's keys in 4-bit fields and moves them to 8-bit ones
    // every 15 keys: equal keys put all of an invocation's keys on one counter, the 16th and 32nd
    // included, in whole tiles (16-byte loads) and in the last, partial one.
    for (uint32_t keysPerThread : {16u, 32u}) {
        vktest::SorterOptions options{16, keysPerThread};
        VksortSorter s = vktest::sorter(options);
        const uint32_t tile = s->tile.tileSize();
        const uint32_t count = 5 * tile + tile / 2 + 3;
        const uint32_t numTiles = (count + tile - 1) / tile;
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_UINT64}) {
            for (hostdata::Distribution::Kind kind : {hostdata::Distribution::Equal, hostdata::Distribution::Few}) {
                const hostdata::Distribution d = vktest::dist(kind, 3);
                INFO("tile " << tile << " (16 x " << keysPerThread << "), key " << hostdata::toString(key) << ", "
                             << hostdata::toString(d));
                PassRig rig(s, key, VKSORT_VALUE_TYPE_NONE, count);
                const vksort::Program program = realProgram(rig, VKSORT_ORDER_ASCENDING, 0, hostdata::keyBits(key), count);
                const vksort::Step& counting = findStep(program, Kernel::TileCounts, 0);
                const vksort::VksortPushConstants& c = counting.constants;
                hostdata::Data input = hostdata::generate(key, VKSORT_VALUE_TYPE_NONE, count, d, 77);
                PassRig::Ranges want = loadWithSentinelTables(rig, input);
                const auto counts = tileCounts(input, VKSORT_ORDER_ASCENDING, c.shift, c.endBit, tile, numTiles);
                runSteps(rig, {&counting});
                expectTileCounts(rig, c, counts, tileVarying(input, VKSORT_ORDER_ASCENDING, tile, numTiles), numTiles, &want);
                rig.check(want);
            }
        }
    }
    vktest::requireCleanValidation();
}

namespace {

// Runs one scan-method reorder step on the tables its scan step leaves (scanModel: prefixes
// within ranges of tiles, the ranges' prefixes, the pass's digit totals; with few tiles no scan
// runs and the table holds the counts; the table the step adds into zeroed for this count's
// tiles, as the pass before leaves it) and checks it
// against the model and vksort_config.h's layout: the stable partition by this pass's digit into
// the other buffer; unless this is the last pass, the next pass's digit counts of every
// destination tile added into the next counts table; this count's tiles of the third table
// zeroed; nothing else written.
void checkReorder(VksortSorter s, const ReorderVariant& v, uint32_t count, uint32_t pass, uint64_t seed) {
    ReorderCase rc(s, v, Kernel::Reorder, count, count + 2 * s->tile.tileSize() + 3, pass, seed);
    const PassRig& rig = rc.rig;
    const vksort::Step& step = rc.step;
    const vksort::VksortPushConstants& c = step.constants;
    const uint32_t tile = rc.tile, numTiles = rc.numTiles;
    const uint32_t passes = (v.endBit - v.beginBit + vksort::kDigitBits - 1) / vksort::kDigitBits;
    const bool next = step.pass + 1 < passes;
    // With few tiles there is no scan step: the reorder sums the counts themselves.
    const bool inlineScan = (c.flags & vksort::kFlagInlineScan) != 0;
    INFO("tile " << tile << ", key " << hostdata::toString(v.key) << ", value " << hostdata::toString(v.value)
                 << (v.order == VKSORT_ORDER_ASCENDING ? ", asc" : ", desc") << ", pass " << step.pass << ", shift "
                 << c.shift << ", end bit " << c.endBit << ", count " << count << " (" << numTiles
                 << " tiles), counts tables " << c.countTable << " / " << c.nextCountTable << " / " << c.zeroCountTable
                 << (inlineScan ? ", inline scan" : ""));
    const vksort::ScratchLayout& l = rig.layout();

    PassRig::Ranges& before = rc.before;
    fillTables(before, rig, kSentinel);
    uint32_t* t = before.tables(l);
    const auto counts = tileCounts(rc.input, v.order, c.shift, c.endBit, tile, numTiles);
    if (!inlineScan) scanModel(rig, counts, numTiles, c.countTable, c.pass, t);
    // Every pass runs: the decision of the first scan step (the passes that run, with the
    // launches of the later passes), which this step reads; or with an inline scan the first
    // reorder's own, from every tile's varying bits (all set here): a skipping sorter's writes
    // the decision into the pass arguments, where sentinels stand before. The spare range, which
    // the other steps' sets bind, holds sentinels that no step may write.
    // After a scan step the first reorder runs the pipeline of the later ones.
    const bool decides = ((rig.sorter->flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) != 0) && inlineScan && step.pass == 0;
    REQUIRE(step.second == decides);
    REQUIRE((step.set == vksort::kSetVariant) == decides);
    auto decision = [&](PassRig::Ranges& r) {
        expectPassesThatRun(r.passArgs(l, false), ~uint64_t(0), v.beginBit, v.endBit, rig.sorter->scan, c, numTiles,
                            !inlineScan);
    };
    if (((rig.sorter->flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) != 0)) {
        uint32_t* spare = before.passArgs(l, true);
        std::fill(spare, spare + vksort::kPassArgsWords, kSentinel);
    }
    if (decides) {
        uint32_t* args = before.passArgs(l, false);
        std::fill(args, args + vksort::kPassArgsWords, kSentinel);
    } else {
        decision(before);
    }
    for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
        t[rig.varyingWord(tileIndex)] = t[rig.varyingWord(tileIndex) + 1] = ~0u;
    }
    for (uint32_t d = 0; d < kRadix; ++d) {
        for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
            if (inlineScan) t[rig.countWord(c.countTable, tileIndex, d)] = counts[d][tileIndex];
            if (next) t[rig.countWord(c.nextCountTable, tileIndex, d)] = 0;
        }
    }
    rig.write(before);

    runSteps(rig, {&step});

    std::vector<uint32_t> from;
    PassRig::Ranges want = rc.partitioned(&from);
    uint32_t* w = want.tables(l);
    const uint32_t nextShift = c.shift + vksort::kDigitBits;
    for (uint32_t j = 0; next && j < count; ++j) {
        ++w[rig.countWord(c.nextCountTable, j / tile, digitOf(rc.input.key(from[j]), v.key, v.order, nextShift, c.endBit))];
    }
    for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
        for (uint32_t d = 0; d < kRadix; ++d) w[rig.countWord(c.zeroCountTable, tileIndex, d)] = 0;
    }
    if (decides) decision(want);
    rig.check(want);
}

} // namespace

TEST_CASE("reorder steps alone: stable partition, next pass's counts per destination tile", "[passes]") {
    // With tiles of 64 keys: more tiles than the sorter's inline limit (prefixes from the scan
    // step, in one range and in several), and few (the reorder sums the counts itself); every pass
    // of each variant, so both directions, all three rotations of the counts tables and the last
    // pass, which counts nothing. Few distinct keys make digit runs that cross destination tiles.
    const ReorderVariant variants[] = {
        {VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, VKSORT_ORDER_ASCENDING, 0, 32},
        {VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, VKSORT_ORDER_DESCENDING, 4, 18},
        {VKSORT_KEY_TYPE_INT64, VKSORT_VALUE_TYPE_UINT64, VKSORT_ORDER_ASCENDING, 24, 40},
    };
  for (bool skip : {false, true}) {
    vktest::SorterOptions options{16, 4};
    options.skipPasses = skip;
    VksortSorter s = vktest::sorter(options);
    const uint32_t tile = s->tile.tileSize();
    uint32_t n = 0;
    for (uint32_t count : {(s->scan.inlineMaxTiles + 20) * tile + 5, 9 * tile + 31,
                           (s->scan.oneRangeMaxTiles + 700) * tile + 3}) {
        for (const ReorderVariant& v : variants) {
            const uint32_t passes = (v.endBit - v.beginBit + vksort::kDigitBits - 1) / vksort::kDigitBits;
            for (uint32_t p = 0; p < passes; ++p, ++n) checkReorder(s, v, count, p, 2000 + n);
        }
    }
  }
    vktest::requireCleanValidation();
}

TEST_CASE("one-workgroup sorts alone: by every pass or by comparisons in one dispatch, tables untouched",
          "[passes]") {
    struct Variant {
        VksortKeyType key;
        VksortValueType value;
        VksortOrder order;
        uint32_t beginBit, endBit;
    };
    const Variant variants[] = {
        {VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, VKSORT_ORDER_ASCENDING, 0, 32},     // 8 passes: in place
        {VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, VKSORT_ORDER_DESCENDING, 0, 32}, // 8 passes
        {VKSORT_KEY_TYPE_INT32, VKSORT_VALUE_TYPE_INDEX, VKSORT_ORDER_ASCENDING, 3, 21},     // 5: to scratch
        {VKSORT_KEY_TYPE_UINT64, VKSORT_VALUE_TYPE_UINT64, VKSORT_ORDER_ASCENDING, 0, 64},   // 16: in place
        {VKSORT_KEY_TYPE_INT64, VKSORT_VALUE_TYPE_UINT32, VKSORT_ORDER_DESCENDING, 30, 42},  // 3: to scratch
        {VKSORT_KEY_TYPE_FLOAT64, VKSORT_VALUE_TYPE_INDEX, VKSORT_ORDER_DESCENDING, 0, 64},  // 16: in place
    };
    // The tests' sorter (by comparisons where the device's row and shared memory give 64-bit keys
    // to them), and one whose row sorts every count of 2 passes or more by comparisons, on a tile
    // of 64 x 4 keys.
    vksort::TuningRow row = vksort::kTuningTable[1];
    row.tile = {64, 4};
    row.single.keysPerThread = 4;
    row.compare.maxCount = 0;
    row.merge.chunkSortMinPasses = row.merge.chunkSortMainMinPasses = 2;
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(vktest::context(), vktest::SorterOptions{});
    VksortSorter comparing = VK_NULL_HANDLE;
    REQUIRE(vksort::createSorter(&info, &row, &comparing) == VK_SUCCESS);
    uint32_t n = 0;
    for (VksortSorter s : {vktest::sorter(), comparing}) {
    const uint32_t small = s->singleTiles[0].tileSize();
    for (const Variant& v : variants) {
        for (uint32_t count : {1u, 2u, 100u, 1000u, small - 1, small}) {
            if (count > small) continue;
            INFO("key " << hostdata::toString(v.key) << ", value " << hostdata::toString(v.value) << ", bits "
                        << v.beginBit << ":" << v.endBit << ", count " << count
                        << (s == comparing ? ", comparing row" : ""));
            PassRig rig(s, v.key, v.value, small + 3);
            const vksort::ScratchLayout& l = rig.layout();
            hostdata::Data input =
                hostdata::generate(v.key, v.value, count, vktest::dist(hostdata::Distribution::Few, 300), 77 + n++);
            if (v.value == VKSORT_VALUE_TYPE_INDEX) input.values.assign(size_t(count) * 4, 0xCD);
            PassRig::Ranges before = loadWithSentinelTables(rig, input);

            const vksort::Program program = realProgram(rig, v.order, v.beginBit, v.endBit, count, true);
            REQUIRE(program.stepCount == 1);
            const vksort::Step& step = program.steps[0];
            const uint32_t keyWidth = vksortKeySize(v.key) / 8;
            const uint32_t minPasses = count <= s->tile.tileSize() ? s->merges[keyWidth].chunkSortMainMinPasses
                                                                   : s->merges[keyWidth].chunkSortMinPasses;
            const bool compared = s->merges[keyWidth].chunkSort && minPasses != 0 &&
                                  (v.endBit - v.beginBit + 3) / 4 >= minPasses;
            CHECK(step.kernel == (compared ? Kernel::ChunkSort : count <= s->tile.tileSize() ? Kernel::SingleMain : Kernel::Single));
            if (s == comparing) CHECK(compared == ((v.endBit - v.beginBit) > 4));
            // An odd pass count leaves the result in scratch, an even one in place.
            const BindingSet set = step.set;
            const uint32_t passes = (v.endBit - v.beginBit + vksort::kDigitBits - 1) / vksort::kDigitBits;
            CHECK(set == (passes % 2 == 1 ? kSetForward : vksort::kSetInPlace));
            runSteps(rig, {&step});

            std::vector<uint32_t> order = hostdata::referencePermutation(input, v.order, v.beginBit, v.endBit);
            PassRig::Ranges want = before;
            uint8_t* outKeys = set == kSetForward ? want.scratchKeys(l) : want.keys.data();
            uint8_t* outValues = set == kSetForward ? want.scratchValues(l) : want.values.data();
            const uint32_t kb = rig.keyBytes(), vb = rig.valueBytes();
            for (uint32_t j = 0; j < count; ++j) {
                std::memcpy(outKeys + size_t(j) * kb, input.keys.data() + size_t(order[j]) * kb, kb);
                if (v.value == VKSORT_VALUE_TYPE_INDEX) std::memcpy(outValues + size_t(j) * 4, &order[j], 4);
                else if (vb != 0) {
                    std::memcpy(outValues + size_t(j) * vb, input.values.data() + size_t(order[j]) * vb, vb);
                }
            }
            rig.check(want);
        }
    }
    }
    vksortDestroySorter(comparing);
    vktest::requireCleanValidation();
}
