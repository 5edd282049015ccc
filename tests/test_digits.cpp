// SPDX-License-Identifier: MIT
// Passes whose digit never varies (shaders/vksort_config.h): with
// VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT, keys whose bits in sort order are the same in some
// digits skip those passes, decided on the GPU, and every sort still equals std::stable_sort, with
// the result where vksortGetSortResult says; a sorter without the flag sorts the same keys too. Keys are uniform in the bits a
// mask lets vary and a fixed pattern elsewhere: constant digits at the top, in the middle, at the
// bottom, all keys equal, and odd and even numbers of skipped passes (an odd number runs one
// extra pass so that the result lands where the full pass count leaves it).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "objects.hpp"
#include "support.hpp"

namespace {

using vktest::Case;

// Uniform keys of `type` whose bits outside `vary` are those of `fixed`.
hostdata::Data maskedKeys(VksortKeyType type, VksortValueType value, uint32_t count, uint64_t vary, uint64_t fixed,
                          uint64_t seed) {
    hostdata::Data data = hostdata::generate(type, value, count, hostdata::Distribution{}, seed);
    const uint32_t kb = vksortKeySize(type);
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t key = 0;
        std::memcpy(&key, data.keys.data() + size_t(i) * kb, kb);
        key = (key & vary) | (fixed & ~vary);
        std::memcpy(data.keys.data() + size_t(i) * kb, &key, kb);
    }
    return data;
}

struct Pattern {
    const char* what;
    uint64_t vary; // the bits that differ between keys
};

// For 32-bit keys (the top word is ignored) and 64-bit keys. The skipped passes (of 8 or 16) are
// counted in the comments.
const Pattern kPatterns32[] = {
    {"16 low bits vary: 4 top passes skipped", 0x0000FFFFull},
    {"12 low bits vary: 5 skipped, one extra pass", 0x00000FFFull},
    {"top and bottom bytes vary: 4 middle passes skipped", 0xFF0000FFull},
    {"bottom byte constant: pass 1 skipped, one extra pass", 0xFFFFFF00ull},
    {"only the top bit varies: 6 skipped", 0x80000000ull},
    {"all keys equal: 7 skipped, one extra pass", 0},
};
const Pattern kPatterns64[] = {
    {"a 12-bit tile id above a 32-bit depth: 5 top passes skipped, one extra pass", 0x00000FFFFFFFFFFFull},
    {"top and bottom 16 bits vary: 8 middle passes skipped", 0xFFFF00000000FFFFull},
    {"30-bit codes: 8 skipped", 0x3FFFFFFFull},
    {"all keys equal: 15 skipped, one extra pass", 0},
};

// Skipping sorters: the default tiles, and small tiles, so that a few hundred thousand keys make
// thousands of tiles: the scan step in ranges decides, not only the inline scan. Then a sorter
// that runs every pass, on the same keys.
vktest::SorterOptions skipping(uint32_t workgroupSize, uint32_t keysPerThread) {
    vktest::SorterOptions options{workgroupSize, keysPerThread};
    options.skipPasses = true;
    return options;
}
const vktest::SorterOptions kSorters[] = {skipping(0, 0), skipping(16, 4), vktest::SorterOptions{}};

void check(const Case& c, uint64_t vary, uint64_t fixed) {
    const hostdata::Data input = maskedKeys(c.key, c.value, c.count, vary, fixed, c.seed);
    vktest::sortAndCheck(c, input);
}

} // namespace

TEST_CASE("constant digits: 32-bit keys skip the passes every key shares, every path", "[digits]") {
    uint32_t n = 0;
    for (const vktest::SorterOptions& sorter : kSorters) {
        const VksortSorterProperties p = vktest::properties(vktest::sorter(sorter));
        // One workgroup; a few tiles (inline scan); and with small tiles a scan step in ranges.
        const uint32_t counts[] = {p.singleDispatchMaxCount - 5, 9 * p.tileSize + 17,
                                   sorter.workgroupSize != 0 ? 4000 * p.tileSize + 3 : 300 * p.tileSize + 1};
        for (const Pattern& pattern : kPatterns32) {
            for (uint32_t count : counts) {
                Case c;
                c.sorter = sorter;
                c.key = n % 3 == 0 ? VKSORT_KEY_TYPE_UINT32 : n % 3 == 1 ? VKSORT_KEY_TYPE_FLOAT32 : VKSORT_KEY_TYPE_INT32;
                c.value = n % 2 == 0 ? VKSORT_VALUE_TYPE_INDEX : VKSORT_VALUE_TYPE_UINT32;
                c.order = n % 4 < 2 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
                c.count = count;
                c.seed = 300 + n++;
                INFO(pattern.what << ", count " << count << ", tile " << p.tileSize);
                check(c, pattern.vary, 0x5A3C96E1ull);
            }
        }
    }
}

TEST_CASE("constant digits: 64-bit keys, pairs, descending, every path", "[digits]") {
    uint32_t n = 0;
    for (const vktest::SorterOptions& sorter : kSorters) {
        const VksortSorterProperties p = vktest::properties(vktest::sorter(sorter));
        const uint32_t counts[] = {p.singleDispatchMaxCount, 5 * p.tileSize + 1,
                                   sorter.workgroupSize != 0 ? 3500 * p.tileSize + 9 : 100 * p.tileSize + 3};
        for (const Pattern& pattern : kPatterns64) {
            for (uint32_t count : counts) {
                Case c;
                c.sorter = sorter;
                c.key = n % 2 == 0 ? VKSORT_KEY_TYPE_UINT64 : VKSORT_KEY_TYPE_FLOAT64;
                c.value = n % 3 == 0 ? VKSORT_VALUE_TYPE_UINT64 : n % 3 == 1 ? VKSORT_VALUE_TYPE_UINT32 : VKSORT_VALUE_TYPE_NONE;
                c.order = n % 4 < 2 ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
                c.count = count;
                c.seed = 700 + n++;
                INFO(pattern.what << ", count " << count << ", tile " << p.tileSize);
                check(c, pattern.vary, 0x0123456789ABCDEFull);
            }
        }
    }
}

TEST_CASE("constant digits inside a bit range: only the range's digits count", "[digits]") {
    // Bits outside [begin, end) vary freely; inside, some digits are constant. Keys equal in the
    // range keep their input order.
    struct Ranged {
        VksortKeyType key;
        uint32_t begin, end;
        uint64_t vary;
    } cases[] = {
        {VKSORT_KEY_TYPE_UINT32, 4, 28, 0xF000FF0Full},            // digits 2-4 of the range constant
        {VKSORT_KEY_TYPE_UINT32, 3, 17, 0xFFFF8007ull},            // a range's last, short digit varies only
        {VKSORT_KEY_TYPE_UINT64, 8, 40, 0xFFFFFF00000000FFull},    // the whole range constant
        {VKSORT_KEY_TYPE_INT64, 20, 64, 0x0FFFF00000FFFFFFull},    // digits across the words
    };
    uint32_t n = 0;
    for (const Ranged& r : cases) {
        for (uint32_t count : {3000u, 100003u}) {
            Case c;
            c.sorter = skipping(0, 0);
            c.key = r.key;
            c.value = VKSORT_VALUE_TYPE_INDEX;
            c.beginBit = r.begin;
            c.endBit = r.end;
            c.count = count;
            c.order = n % 2 == 0 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
            c.seed = 900 + n++;
            INFO("bits " << r.begin << ":" << r.end << ", varying 0x" << std::hex << r.vary);
            check(c, r.vary, 0xA5A5A5A5A5A5A5A5ull);
        }
    }
}

TEST_CASE("constant digits with a count read on the GPU", "[digits][indirect]") {
    // vksortCmdSortIndirect: the same decision, with the inline scan or the scan step chosen on
    // the GPU too; counts in both, and one past the single-workgroup limit.
    vkctx::Context& ctx = vktest::context();
    for (const vktest::SorterOptions& options : {skipping(0, 0), skipping(16, 4)}) {
        VksortSorter sorter = vktest::sorter(options);
        const VksortSorterProperties p = vktest::properties(sorter);
        const uint32_t capacity = options.workgroupSize != 0 ? 4000 * p.tileSize : 300 * p.tileSize;
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_UINT64}) {
            vktest::BindingsRig rig(ctx, sorter, key, VKSORT_VALUE_TYPE_INDEX, capacity);
            vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
            uint32_t n = 0;
            for (uint64_t vary : {0x0000FFFFull, 0x00000FFFull, 0ull}) {
                for (uint32_t count : {p.singleDispatchMaxCount + 1, 7 * p.tileSize + 3, capacity - 11}) {
                    INFO("key " << hostdata::toString(key) << ", varying 0x" << std::hex << vary << std::dec << ", count "
                                << count << ", capacity " << capacity);
                    const hostdata::Data input = maskedKeys(key, VKSORT_VALUE_TYPE_INDEX, count, vary, 0x7777ull, 40 + n++);
                    rig.load(input);
                    // Both pass-argument ranges hold a pattern first: the decision must be this
                    // sort's, and the spare range must stay untouched.
                    const vksort::ScratchLayout& l = rig.bindings()->layout;
                    for (uint64_t offset : {l.variantArgsOffset, l.spareArgsOffset}) {
                        std::memset(rig.scratch() + offset, 0x5A, l.variantArgsBytes);
                    }
                    *static_cast<uint32_t*>(countBuffer.mapped) = count; // (the submission makes it visible)
                    VksortSortInfo info{};
                    info.bindings = rig.bindings();
                    VksortSortResult where{};
                    ctx.submitAndWait([&](VkCommandBuffer cmd) {
                        vktest::hostToCompute(cmd);
                        vktest::transferToCompute(cmd);
                        REQUIRE(vksortCmdSortIndirect(cmd, sorter, &info, countBuffer.buffer, 0, &where) == VK_SUCCESS);
                        vktest::computeToHost(cmd);
                    });
                    const std::vector<uint32_t> permutation =
                        hostdata::referencePermutation(input, VKSORT_ORDER_ASCENDING, 0, hostdata::keyBits(key));
                    const hostdata::Verdict verdict = hostdata::verify(input, permutation, rig.mapped(where.keys),
                                                                        rig.mapped(where.values));
                    INFO(verdict.detail);
                    REQUIRE(verdict.ok);
                    REQUIRE(rig.guardDamage().empty());
                    // The passes that ran: thousands of uniform keys vary in every bit of the mask.
                    uint32_t running = 0;
                    const uint8_t* passArgs = rig.scratch() + rig.bindings()->layout.variantArgsOffset;
                    std::memcpy(&running, passArgs + vksort::kPassCount * 4, 4);
                    const uint32_t keyBits = hostdata::keyBits(key);
                    CHECK(running == vksort::vksortRunningPassCount(
                                         vksort::vksortRunningPasses(uint32_t(vary), uint32_t(vary >> 32), 0, keyBits)));
                    CHECK(running < keyBits / 4);
                    const uint8_t* spare = rig.scratch() + l.spareArgsOffset;
                    CHECK(std::all_of(spare, spare + l.variantArgsBytes, [](uint8_t b) { return b == 0x5A; }));
                }
            }
            ctx.destroyBuffer(countBuffer);
        }
    }
    vktest::requireCleanValidation();
}

TEST_CASE("constant digits: what a skipping sort records, pipeline by pipeline", "[digits][pipelines]") {
    // Which steps run the deciding pipelines, bind the pass arguments and make them visible:
    // Debian 12's validation layer counts shader reads as uniform reads, so the spy checks the
    // recorded barriers instead. Only the steps that may write the decision (the first scan
    // step; the first reorder with an inline scan, or in an indirect sort) run the deciding
    // pipelines and bind the deciding set, and exactly their barriers reach uniform reads; in a
    // direct sort only the first scan step's barrier reaches the indirect launches, which the
    // later passes' steps all are.
    vkctx::Context& ctx = vktest::context();
    vktest::SorterOptions options = skipping(16, 4);
    options.spy = true;
    VksortSorter sorter = vktest::sorter(options);
    uint32_t listed = 0;
    REQUIRE(vksortGetSorterPipelines(sorter, &listed, nullptr) == VK_SUCCESS);
    std::vector<VksortPipelineInfo> pipelines(listed);
    REQUIRE(vksortGetSorterPipelines(sorter, &listed, pipelines.data()) == VK_SUCCESS);
    auto nameOf = [&](VkPipeline pipeline) {
        for (const VksortPipelineInfo& p : pipelines) {
            if (p.pipeline == pipeline) return std::string(p.name);
        }
        return std::string("?");
    };
    const uint32_t tile = sorter->tile.tileSize();
    const uint32_t inlineMax = sorter->scan.inlineMaxTiles;
    vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, (inlineMax + 20) * tile);
    const VkDescriptorSet deciding = rig.bindings()->sets[vksort::kSetVariant];
    vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    for (bool indirect : {false, true}) {
        // (7 tiles more than the compare and merge sorts take, which run no passes.)
        for (uint32_t count : {std::max(sorter->compare.maxCount, sorter->merges[0].maxCount) + 7 * tile + 3, (inlineMax + 20) * tile}) {
            const bool inlineScan = count <= inlineMax * tile;
            INFO((indirect ? "indirect, " : "") << "count " << count << (inlineScan ? ", inline scan" : ", scan steps"));
            const hostdata::Data input = maskedKeys(VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, count, 0xFFFFull, 0, 7);
            rig.load(input);
            *static_cast<uint32_t*>(countBuffer.mapped) = count;
            VksortSortInfo info{};
            info.bindings = rig.bindings();
            info.count = count;
            const size_t first = vktest::commandLog().events.size();
            ctx.submitAndWait([&](VkCommandBuffer cmd) {
                vktest::hostToCompute(cmd);
                if (indirect) {
                    vktest::transferToCompute(cmd);
                    REQUIRE(vksortCmdSortIndirect(cmd, sorter, &info, countBuffer.buffer, 0, nullptr) == VK_SUCCESS);
                } else {
                    REQUIRE(vksortCmdSort(cmd, sorter, &info, nullptr) == VK_SUCCESS);
                }
                vktest::computeToHost(cmd);
            });
            // Each dispatch with its pipeline, set, launch and the barrier after it.
            struct Launch {
                std::string pipeline;
                bool decidingSet = false, indirectLaunch = false;
                VkAccessFlags after = 0;
            };
            std::vector<Launch> launches;
            const std::vector<vktest::CommandLog::Event>& events = vktest::commandLog().events;
            std::string pipeline;
            VkDescriptorSet set = VK_NULL_HANDLE;
            for (size_t i = first; i < events.size(); ++i) {
                const vktest::CommandLog::Event& e = events[i];
                if (e.kind == vktest::CommandLog::Event::BindPipeline) pipeline = nameOf(e.pipeline);
                if (e.kind == vktest::CommandLog::Event::BindSet) set = e.set;
                if (e.kind == vktest::CommandLog::Event::Dispatch || e.kind == vktest::CommandLog::Event::DispatchIndirect) {
                    launches.push_back({pipeline, set == deciding, e.kind == vktest::CommandLog::Event::DispatchIndirect});
                }
                if (e.kind == vktest::CommandLog::Event::Barrier && !launches.empty()) launches.back().after |= e.dstAccess;
            }
            bool scanSeen = false, reorderSeen = false;
            uint32_t decidingPipelines = 0;
            for (const Launch& l : launches) {
                INFO(l.pipeline);
                const bool scan = l.pipeline.rfind("scan", 0) == 0, reorder = l.pipeline.rfind("reorder", 0) == 0;
                const bool firstOfKind = (scan && !scanSeen) || (reorder && !reorderSeen);
                const bool decides = l.pipeline.find("_deciding") != std::string::npos;
                const bool writes = firstOfKind && (scan || inlineScan || indirect);
                CHECK(decides == writes);
                decidingPipelines += decides ? 1 : 0;
                CHECK(l.decidingSet == writes);
                CHECK(((l.after & VK_ACCESS_UNIFORM_READ_BIT) != 0) == writes);
                if (!indirect) {
                    const bool launchesFollow = scan && firstOfKind && !inlineScan;
                    CHECK(((l.after & VK_ACCESS_INDIRECT_COMMAND_READ_BIT) != 0) == launchesFollow);
                    CHECK(l.indirectLaunch == (!inlineScan && (scan || reorder) && !firstOfKind));
                }
                scanSeen = scanSeen || scan;
                reorderSeen = reorderSeen || reorder;
            }
            CHECK(decidingPipelines == (indirect ? 2u : 1u));
            CHECK(reorderSeen);
        }
    }
    ctx.destroyBuffer(countBuffer);
    vktest::requireCleanValidation();
}
