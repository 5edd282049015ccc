// Each pass alone against a CPU model of what it must write (src/record.hpp's entry points).
//
// Every test snapshots the keys, values and scratch ranges, computes the bytes they must hold
// afterwards from the model (the layout documented in shaders/vksort_config.h, recomputed here
// rather than taken from the shaders), records just the pass, and compares whole ranges: a pass
// must write what it owns and not one word more. Untouched table words hold a sentinel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

#include "objects.hpp"
#include "record.hpp"
#include "support.hpp"

namespace {

using vksort::PassParams;

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

    // Word index, inside the tables region, of table `table`'s count of `digit` in `tile`.
    size_t entry(uint32_t table, uint32_t digit, uint32_t tileIndex) const {
        return vksort::kHistogramsOffset + (size_t(table) * kRadix + digit) * layout().rowStride + tileIndex;
    }
    size_t tableWords() const { return size_t(layout().tablesBytes / 4); }

    // The three ranges as byte vectors: read now, or written back.
    struct Ranges {
        std::vector<uint8_t> keys, values, scratch;
        uint32_t* tables(const vksort::ScratchLayout& l) {
            return reinterpret_cast<uint32_t*>(scratch.data() + l.tablesOffset);
        }
        uint8_t* scratchKeys(const vksort::ScratchLayout& l) { return scratch.data() + l.keysOffset; }
        uint8_t* scratchValues(const vksort::ScratchLayout& l) { return scratch.data() + l.valuesOffset; }
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
            if (word < vksort::kHistogramsOffset) return "total of digit " + std::to_string(word - vksort::kTotalsOffset);
            size_t w = word - vksort::kHistogramsOffset;
            size_t row = w / l.rowStride;
            return "table " + std::to_string(row / kRadix) + ", digit " + std::to_string(row % kRadix) + ", tile " +
                   std::to_string(w % l.rowStride);
        }
        if (byte >= l.keysOffset && byte < l.keysOffset + l.keysBytes) {
            return "scratch key " + std::to_string((byte - l.keysOffset) / keyBytes());
        }
        if (l.valuesBytes != 0 && byte >= l.valuesOffset && byte < l.valuesOffset + l.valuesBytes) {
            return "scratch value " + std::to_string((byte - l.valuesOffset) / valueBytes());
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

void fillTables(PassRig::Ranges& r, const PassRig& rig, uint32_t value) {
    uint32_t* t = r.tables(rig.layout());
    std::fill(t, t + rig.tableWords(), value);
}

// Loads `input` into the rig and sets every table word to kSentinel; returns what the rig's
// ranges then hold, the baseline a pass's expected result is built from.
PassRig::Ranges loadWithSentinelTables(PassRig& rig, const hostdata::Data& input) {
    rig.rig.load(input);
    PassRig::Ranges before = rig.read();
    fillTables(before, rig, kSentinel);
    rig.write(before);
    return before;
}

const vktest::SorterOptions kSmallTiles{16, 4};

} // namespace

TEST_CASE("histogram alone: per-tile digit counts, digit-major, and the next table zeroed", "[passes]") {
    struct Variant {
        VksortKeyType key;
        VksortOrder order;
        uint32_t shift, endBit;
    };
    // The mapping of each key class, a digit cut short by the end bit, and for 64-bit keys
    // digits in the high word and straddling the two words.
    const Variant variants[] = {{VKSORT_KEY_TYPE_UINT32, VKSORT_ORDER_ASCENDING, 0, 32},
                                {VKSORT_KEY_TYPE_INT32, VKSORT_ORDER_DESCENDING, 28, 32},
                                {VKSORT_KEY_TYPE_FLOAT32, VKSORT_ORDER_ASCENDING, 29, 32},
                                {VKSORT_KEY_TYPE_UINT32, VKSORT_ORDER_DESCENDING, 8, 10},
                                {VKSORT_KEY_TYPE_UINT64, VKSORT_ORDER_ASCENDING, 30, 64},
                                {VKSORT_KEY_TYPE_INT64, VKSORT_ORDER_ASCENDING, 60, 64},
                                {VKSORT_KEY_TYPE_FLOAT64, VKSORT_ORDER_DESCENDING, 40, 43}};
    for (const vktest::SorterOptions& options : {vktest::SorterOptions{}, kSmallTiles}) {
        VksortSorter s = vktest::sorter(options);
        const uint32_t tile = s->tile.tileSize();
        uint32_t n = 0;
        for (const Variant& v : variants) {
            // Whole tiles only (the vector loads), a partial last tile, and a single short tile.
            for (uint32_t count : {4 * tile, 5 * tile + 3, tile / 2 + 1}) {
                const uint32_t table = n++ % vksort::kHistogramTables;
                INFO("tile " << tile << ", key " << hostdata::toString(v.key) << ", shift " << v.shift << ", end bit "
                             << v.endBit << ", count " << count << ", table " << table);
                // A capacity above the count: the columns of tiles past it must stay untouched.
                PassRig rig(s, v.key, VKSORT_VALUE_TYPE_NONE, count + 2 * tile + 5);
                hostdata::Data input = hostdata::generate(v.key, VKSORT_VALUE_TYPE_NONE, count, {}, count + n);
                PassRig::Ranges before = loadWithSentinelTables(rig, input);

                PassParams pass;
                pass.count = count;
                pass.shift = v.shift;
                pass.endBit = v.endBit;
                pass.flags = vksort::orderFlags(v.key, v.order);
                pass.table = table;
                pass.set = kSetForward;
                rig.run([&](VkCommandBuffer cmd) {
                    vksort::bindPass(cmd, *s, rig.bindings(), pass);
                    vksort::dispatchHistogram(cmd, *s, rig.bindings(), pass);
                });

                const uint32_t numTiles = (count + tile - 1) / tile;
                auto counts = tileCounts(input, v.order, v.shift, v.endBit, tile, numTiles);
                PassRig::Ranges want = before;
                uint32_t* t = want.tables(rig.layout());
                for (uint32_t d = 0; d < kRadix; ++d) {
                    for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
                        t[rig.entry(table, d, tileIndex)] = counts[d][tileIndex];
                        t[rig.entry((table + 1) % vksort::kHistogramTables, d, tileIndex)] = 0;
                    }
                }
                rig.check(want);
            }
        }
    }
    vktest::requireCleanValidation();
}

TEST_CASE("histogram alone at the most keys per thread: 8-bit counters as full as they get", "[passes]") {
    // histogram.comp keeps each thread's digit counts in 8-bit fields; 32 keys per thread is the most
    // the planner allows (src/plan.cpp says why). All-equal keys fill one field in every thread,
    // and two alternating digits fill two fields side by side (a carry would corrupt the
    // neighbour).
    VksortSorter s = vktest::sorter({16, 32});
    const uint32_t tile = s->tile.tileSize();
    REQUIRE(tile == 16 * 32);
    for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_UINT64}) {
        for (uint32_t pattern = 0; pattern < 2; ++pattern) {
            const uint32_t count = 2 * tile + 7;
            INFO("key " << hostdata::toString(key) << ", " << (pattern == 0 ? "all equal" : "two alternating digits"));
            PassRig rig(s, key, VKSORT_VALUE_TYPE_NONE, count);
            hostdata::Data input = hostdata::generate(key, VKSORT_VALUE_TYPE_NONE, count, {}, 9);
            for (uint32_t i = 0; i < count; ++i) {
                const uint64_t k = pattern == 0 ? 0xF : (i % 2 == 0 ? 0x3 : 0x4);
                std::memcpy(input.keys.data() + size_t(i) * rig.keyBytes(), &k, rig.keyBytes());
            }
            PassRig::Ranges before = loadWithSentinelTables(rig, input);
            PassParams pass;
            pass.count = count;
            pass.endBit = hostdata::keyBits(key);
            pass.flags = vksort::orderFlags(key, VKSORT_ORDER_ASCENDING);
            rig.run([&](VkCommandBuffer cmd) {
                vksort::bindPass(cmd, *s, rig.bindings(), pass);
                vksort::dispatchHistogram(cmd, *s, rig.bindings(), pass);
            });
            const uint32_t numTiles = (count + tile - 1) / tile;
            auto counts = tileCounts(input, VKSORT_ORDER_ASCENDING, 0, pass.endBit, tile, numTiles);
            PassRig::Ranges want = before;
            uint32_t* t = want.tables(rig.layout());
            for (uint32_t d = 0; d < kRadix; ++d) {
                for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
                    t[rig.entry(0, d, tileIndex)] = counts[d][tileIndex];
                    t[rig.entry(1, d, tileIndex)] = 0;
                }
            }
            rig.check(want);
        }
    }
    vktest::requireCleanValidation();
}

TEST_CASE("scan pass alone: exclusive row prefixes in place, and the 16 totals", "[passes]") {
    // Tile counts that fill part of a scan chunk, exactly one, and more than one: a chunk is
    // workgroup size x kScanItemsPerThread tiles (4096 with 256 invocations, 256 with 16).
    for (const vktest::SorterOptions& options : {vktest::SorterOptions{}, kSmallTiles}) {
        VksortSorter s = vktest::sorter(options);
        const uint32_t tile = s->tile.tileSize();
        const uint32_t chunk = s->tile.workgroupSize * vksort::kScanItemsPerThread;
        std::vector<uint32_t> tileCountsToScan = {1, 2, 37, chunk, chunk + 1};
        if (tile <= 256) tileCountsToScan.push_back(3 * chunk + 17);
        uint32_t n = 0;
        for (uint32_t numTiles : tileCountsToScan) {
            const uint32_t table = n++ % vksort::kHistogramTables;
            const uint32_t count = numTiles * tile - (numTiles > 1 ? tile / 3 : 0);
            INFO("tile " << tile << ", " << numTiles << " tiles, table " << table);
            PassRig rig(s, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, count + tile);
            PassRig::Ranges before = rig.read();
            fillTables(before, rig, kSentinel);
            // Counts as a histogram could leave them (any value up to a tile), some rows empty.
            std::mt19937 rng(numTiles);
            uint32_t* t = before.tables(rig.layout());
            for (uint32_t d = 0; d < kRadix; ++d) {
                for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
                    t[rig.entry(table, d, tileIndex)] = d == 5 ? 0u : uint32_t(rng() % (tile + 1));
                }
            }
            rig.write(before);

            PassParams pass;
            pass.count = count;
            pass.endBit = 32;
            pass.table = table;
            rig.run([&](VkCommandBuffer cmd) {
                vksort::bindPass(cmd, *s, rig.bindings(), pass);
                vksort::dispatchScan(cmd, *s, rig.bindings(), pass);
            });

            PassRig::Ranges want = before;
            uint32_t* w = want.tables(rig.layout());
            for (uint32_t d = 0; d < kRadix; ++d) {
                uint32_t running = 0;
                for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
                    uint32_t c = w[rig.entry(table, d, tileIndex)];
                    w[rig.entry(table, d, tileIndex)] = running;
                    running += c;
                }
                w[vksort::kTotalsOffset + d] = running;
            }
            rig.check(want);
        }
    }
    vktest::requireCleanValidation();
}

namespace {

struct ReorderVariant {
    VksortKeyType key;
    VksortValueType value;
    VksortOrder order;
    uint32_t shift, endBit;
};

// Runs one reorder pass on prepared tables and checks it against the model: the stable
// partition by this pass's digit, the next pass's digit counts per destination tile added into
// table + 1, table + 2 zeroed for the tiles of this count, and nothing else written.
void checkReorder(VksortSorter s, const ReorderVariant& v, uint32_t count, uint32_t table, BindingSet set,
                  bool inlineScan, bool countNext, uint64_t seed) {
    const uint32_t tile = s->tile.tileSize();
    const uint32_t numTiles = (count + tile - 1) / tile;
    const bool index = v.value == VKSORT_VALUE_TYPE_INDEX;
    INFO("tile " << tile << ", key " << hostdata::toString(v.key) << ", value " << hostdata::toString(v.value)
                 << (v.order == VKSORT_ORDER_ASCENDING ? ", asc" : ", desc") << ", shift " << v.shift << ", end bit "
                 << v.endBit << ", count " << count << " (" << numTiles << " tiles), table " << table
                 << (set == kSetForward ? ", caller -> scratch" : ", scratch -> caller")
                 << (inlineScan ? ", inline scan" : ", scanned table") << (countNext ? ", counts next" : ""));
    PassRig rig(s, v.key, v.value, count + tile + 7);
    const vksort::ScratchLayout& l = rig.layout();
    const uint32_t kb = rig.keyBytes(), vb = rig.valueBytes();
    // Few distinct keys make long digit runs that cross destination tiles; uniform keys spread
    // every tile over all 16 digits.
    const hostdata::Distribution dist = (seed + seed / 4) % 2 == 0 ? vktest::dist(hostdata::Distribution::Few, 50)
                                                      : vktest::dist(hostdata::Distribution::Uniform);
    hostdata::Data input = hostdata::generate(v.key, v.value, count, dist, seed);
    if (index) { // argsort values are made by the pass: the input range holds garbage
        input.values.assign(size_t(count) * 4, 0xCD);
    }

    PassRig::Ranges before = rig.read();
    // The input where this direction reads it; the output side keeps the canary bytes.
    uint8_t* inKeys = set == kSetForward ? before.keys.data() : before.scratchKeys(l);
    uint8_t* inValues = set == kSetForward ? before.values.data() : before.scratchValues(l);
    std::memcpy(inKeys, input.keys.data(), input.keys.size());
    if (vb != 0) std::memcpy(inValues, input.values.data(), input.values.size());

    // Tables: this pass's counts (raw for the inline scan, else scanned with their totals), the
    // next table zeroed for this count's tiles as the pass before would have left it, sentinels
    // everywhere else (including the totals when the reorder must not read them).
    fillTables(before, rig, kSentinel);
    uint32_t* t = before.tables(l);
    auto counts = tileCounts(input, v.order, v.shift, v.endBit, tile, numTiles);
    const uint32_t next = (table + 1) % vksort::kHistogramTables, afterNext = (table + 2) % vksort::kHistogramTables;
    for (uint32_t d = 0; d < kRadix; ++d) {
        uint32_t running = 0;
        for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
            t[rig.entry(table, d, tileIndex)] = inlineScan ? counts[d][tileIndex] : running;
            running += counts[d][tileIndex];
            t[rig.entry(next, d, tileIndex)] = 0;
        }
        if (!inlineScan) t[vksort::kTotalsOffset + d] = running;
    }
    rig.write(before);

    PassParams pass;
    pass.count = count;
    pass.shift = v.shift;
    pass.endBit = v.endBit;
    pass.flags = vksort::orderFlags(v.key, v.order) | (index ? vksort::kFlagIndexValues : 0u) |
                 (inlineScan ? vksort::kFlagInlineScan : 0u) | (countNext ? vksort::kFlagNextHistogram : 0u);
    pass.table = table;
    pass.set = set;
    rig.run([&](VkCommandBuffer cmd) {
        vksort::bindPass(cmd, *s, rig.bindings(), pass);
        vksort::dispatchReorder(cmd, *s, rig.bindings(), pass);
    });

    // The model: a stable partition of the input by digit.
    std::vector<uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return digitOf(input.key(a), v.key, v.order, v.shift, v.endBit) <
               digitOf(input.key(b), v.key, v.order, v.shift, v.endBit);
    });
    PassRig::Ranges want = before;
    uint8_t* outKeys = set == kSetForward ? want.scratchKeys(l) : want.keys.data();
    uint8_t* outValues = set == kSetForward ? want.scratchValues(l) : want.values.data();
    const uint32_t nextShift = v.shift + vksort::kDigitBits;
    uint32_t* w = want.tables(l);
    for (uint32_t j = 0; j < count; ++j) {
        const uint32_t from = order[j];
        std::memcpy(outKeys + size_t(j) * kb, input.keys.data() + size_t(from) * kb, kb);
        if (index) std::memcpy(outValues + size_t(j) * 4, &from, 4);
        else if (vb != 0) std::memcpy(outValues + size_t(j) * vb, input.values.data() + size_t(from) * vb, vb);
        if (countNext) ++w[rig.entry(next, digitOf(input.key(from), v.key, v.order, nextShift, v.endBit), j / tile)];
    }
    for (uint32_t d = 0; d < kRadix; ++d) {
        for (uint32_t tileIndex = 0; tileIndex < numTiles; ++tileIndex) {
            size_t e = rig.entry(afterNext, d, tileIndex);
            if (countNext) {
                w[e] = 0;
            } else {
                // After the last pass the table is dead: zeroing it is allowed, not required.
                const uint32_t* got = reinterpret_cast<const uint32_t*>(rig.rig.scratch() + l.tablesOffset);
                if (got[e] == 0) w[e] = 0;
            }
        }
    }
    rig.check(want);
}

} // namespace

TEST_CASE("reorder pass alone: stable partition, next pass's counts per destination tile", "[passes]") {
    // Each width of key and value; signed, float, descending; a digit cut short by the end bit
    // and a next digit cut short (shift 4, end 10); digits straddling a 64-bit key's words.
    const ReorderVariant variants[] = {
        {VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, VKSORT_ORDER_ASCENDING, 0, 32},
        {VKSORT_KEY_TYPE_INT32, VKSORT_VALUE_TYPE_UINT32, VKSORT_ORDER_DESCENDING, 4, 10},
        {VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX, VKSORT_ORDER_ASCENDING, 24, 32},
        {VKSORT_KEY_TYPE_UINT64, VKSORT_VALUE_TYPE_UINT64, VKSORT_ORDER_ASCENDING, 30, 64},
        {VKSORT_KEY_TYPE_INT64, VKSORT_VALUE_TYPE_NONE, VKSORT_ORDER_ASCENDING, 56, 64},
        {VKSORT_KEY_TYPE_FLOAT64, VKSORT_VALUE_TYPE_UINT32, VKSORT_ORDER_DESCENDING, 28, 40},
        {VKSORT_KEY_TYPE_FLOAT64, VKSORT_VALUE_TYPE_INDEX, VKSORT_ORDER_DESCENDING, 0, 8},
    };
    uint32_t n = 0;
    for (const vktest::SorterOptions& options : {vktest::SorterOptions{}, kSmallTiles}) {
        VksortSorter s = vktest::sorter(options);
        const uint32_t tile = s->tile.tileSize();
        // A few tiles with a partial last one; with the small tiles, more than the inline-scan
        // limit (the flag is forced here either way, so both ways of reading counts meet both).
        const uint32_t count = tile <= 256 ? 300 * tile + 5 : 5 * tile + 77;
        for (const ReorderVariant& v : variants) {
            for (bool inlineScan : {false, true}) {
                for (bool countNext : {true, false}) {
                    // Both directions, crossed with both flags over the variants. Argsort values
                    // are made in the first pass, which reads the caller's buffers.
                    const bool forward = (n / 2 + n / 4) % 2 == 0 || v.value == VKSORT_VALUE_TYPE_INDEX;
                    const BindingSet set = forward ? kSetForward : kSetBackward;
                    checkReorder(s, v, count, n % vksort::kHistogramTables, set, inlineScan, countNext, 1000 + n);
                    ++n;
                }
            }
        }
    }
    vktest::requireCleanValidation();
}

TEST_CASE("single-workgroup sort alone: every pass in one dispatch, tables untouched", "[passes]") {
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
    VksortSorter s = vktest::sorter();
    const uint32_t small = s->singleTile.tileSize();
    uint32_t n = 0;
    for (const Variant& v : variants) {
        for (uint32_t count : {1u, 2u, 1000u, small - 1, small}) {
            const uint32_t passes = (v.endBit - v.beginBit + 3) / 4;
            const BindingSet set = passes % 2 == 1 ? kSetForward : kSetInPlace;
            INFO("key " << hostdata::toString(v.key) << ", value " << hostdata::toString(v.value) << ", bits "
                        << v.beginBit << ":" << v.endBit << ", count " << count);
            PassRig rig(s, v.key, v.value, small + 3);
            const vksort::ScratchLayout& l = rig.layout();
            hostdata::Data input =
                hostdata::generate(v.key, v.value, count, vktest::dist(hostdata::Distribution::Few, 300), 77 + n++);
            if (v.value == VKSORT_VALUE_TYPE_INDEX) input.values.assign(size_t(count) * 4, 0xCD);
            PassRig::Ranges before = loadWithSentinelTables(rig, input);

            PassParams pass;
            pass.count = count;
            pass.shift = v.beginBit;
            pass.endBit = v.endBit;
            pass.flags = vksort::orderFlags(v.key, v.order) |
                         (v.value == VKSORT_VALUE_TYPE_INDEX ? vksort::kFlagIndexValues : 0u);
            pass.set = set;
            rig.run([&](VkCommandBuffer cmd) {
                vksort::bindPass(cmd, *s, rig.bindings(), pass);
                vksort::dispatchSingle(cmd, *s, rig.bindings(), pass);
            });

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
    vktest::requireCleanValidation();
}
