// SPDX-License-Identifier: MIT
// End-to-end sorts against std::stable_sort, with guard bands and validation (support.hpp):
// sizes at every boundary the data path has, distributions, offsets, tile shapes, devices.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "objects.hpp"
#include "plan.hpp"
#include "support.hpp"
#include "tuning.hpp"

using hostdata::Distribution;
using vktest::Case;
using vktest::SorterOptions;

namespace {

// Counts where the data path changes: empty, one key, the compare sort's and the single-workgroup
// limits, tile edges of the multi-pass path (the first tiles past the small limit, a partial last
// tile), and counts of hundreds and thousands of tiles (inline scans of many tiles, scan steps, by
// ranges).
std::vector<uint32_t> boundaryCounts(const VksortSorterProperties& p, uint32_t maxCount) {
    const uint32_t tile = p.tileSize, small = p.singleDispatchMaxCount;
    const uint64_t firstTiles = small / tile + 1; // tiles of the first multi-pass count
    const uint64_t scanChunk = uint64_t(p.workgroupSize) * 16u;
    const uint64_t compare = p.compareSortMaxCount;
    std::vector<uint64_t> counts = {0, 1, 2, 3, compare, compare + 1, small - 1, small, small + 1, tile - 1, tile, tile + 1,
                                    firstTiles * tile - 1, firstTiles * tile, firstTiles * tile + 1,
                                    (firstTiles + 2) * tile + tile / 2, 256u * tile, 256u * tile + 1,
                                    scanChunk * tile, scanChunk * tile + 1};
    std::vector<uint32_t> out;
    for (uint64_t c : counts) {
        if (c <= maxCount && std::find(out.begin(), out.end(), uint32_t(c)) == out.end()) out.push_back(uint32_t(c));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// A sorter created with `row` instead of the device's tuning row (vksort::createSorter).
VksortSorter rowSorter(const vksort::TuningRow& row, const SorterOptions& options) {
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(vktest::context(), options);
    VksortSorter sorter = VK_NULL_HANDLE;
    REQUIRE(vksort::createSorter(&info, &row, &sorter) == VK_SUCCESS);
    return sorter;
}

void sortBoundaries(const SorterOptions& options, uint32_t maxCount, VksortKeyType key = VKSORT_KEY_TYPE_UINT32) {
    VksortSorterProperties p = vktest::properties(vktest::sorter(options));
    INFO("tile " << p.tileSize << " (" << p.workgroupSize << " x " << p.keysPerThread << "), single workgroup up to "
                 << p.singleDispatchMaxCount);
    for (uint32_t count : boundaryCounts(p, maxCount)) {
        for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32}) {
            Case c;
            c.sorter = options;
            c.key = key;
            c.count = count;
            c.value = value;
            c.seed = count;
            vktest::sortAndCheck(c);
        }
    }
}

// Sorts each count over each bit range: all bits, and ranges of odd pass counts, one of them
// above bit 32 (64-bit keys only), cycling through the key and value types, both orders and
// uniform or few distinct keys (every third case), each with a capacity a little above its count
// and a seed from `seed` on. `each` sees every case before it is sorted.
void sortRangeCases(VksortSorter sorter, const SorterOptions& options, const std::vector<uint32_t>& counts,
                    const std::string& label, uint32_t seed, const std::function<void(const Case&)>& each = {}) {
    const VksortKeyType keys[] = {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT32, VKSORT_KEY_TYPE_FLOAT32,
                                  VKSORT_KEY_TYPE_UINT64, VKSORT_KEY_TYPE_INT64, VKSORT_KEY_TYPE_FLOAT64};
    const VksortValueType values[] = {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32, VKSORT_VALUE_TYPE_INDEX,
                                      VKSORT_VALUE_TYPE_UINT64};
    const uint32_t ranges[][2] = {{0, 0}, {0, 4}, {3, 15}, {8, 28}, {33, 61}};
    uint32_t n = 0;
    for (uint32_t count : counts) {
        for (const auto& range : ranges) {
            for (size_t v = 0; v < 4; ++v) {
                Case c;
                c.key = keys[(n + v) % 6];
                if (range[1] > 32 && c.key < VKSORT_KEY_TYPE_UINT64) continue;
                c.value = values[v];
                c.count = count;
                c.beginBit = range[0];
                c.endBit = range[1];
                c.dist = n % 3 == 0 ? vktest::dist(Distribution::Few, 3) : vktest::dist(Distribution::Uniform);
                c.order = n % 2 == 0 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
                c.maxCount = count + (n % 3) * 50;
                c.seed = seed + n++;
                c.sorter = options;
                if (each) each(c);
                INFO(label << c.describe());
                vktest::sortAndCheck(c, sorter);
            }
        }
    }
}

} // namespace

TEST_CASE("u32 keys, sizes around the tile boundaries", "[sort]") {
    VksortSorterProperties p = vktest::properties(vktest::sorter());
    // Up to 257 tiles; thousands of tiles need the default shape's millions of keys, which the
    // small tile shapes below reach cheaply.
    sortBoundaries({}, 256u * p.tileSize + 1);
}

TEST_CASE("sizes around the boundaries of other tile shapes", "[sort]") {
    // 16 x 16: the tile equals the single-workgroup limit. 64 x 5 and 32 x 6: keys per thread
    // that the tile counts' 16-byte loads do not divide. 16 x 4: the smallest tile with vector
    // loads, so thousands of tiles are cheap to reach.
    // (Every distinct shape costs pipeline compilations: lavapipe compiles at first dispatch,
    // so the tests share this small set of shapes; see vktest::kTileShapes.)
    for (const SorterOptions& options : vktest::kTileShapes) {
        INFO("workgroupSize " << options.workgroupSize << ", keysPerThread " << options.keysPerThread);
        sortBoundaries(options, 300000);
    }
}

TEST_CASE("64-bit keys, sizes around the tile boundaries", "[sort]") {
    sortBoundaries({}, 8u * vktest::properties(vktest::sorter()).tileSize, VKSORT_KEY_TYPE_FLOAT64);
    sortBoundaries(SorterOptions{16, 4}, 5000, VKSORT_KEY_TYPE_INT64);
}

TEST_CASE("a 1024-invocation workgroup", "[sort]") {
    // More subgroups than subgroup 0 has lanes (1024 / 8 = 128 on lavapipe, 256 at width 4): the
    // workgroup scans loop over chunks of subgroup totals. Skipped where the device cannot hold
    // it. (The most keys per thread, 32, is tested on the tile counts alone in test_passes.cpp.)
    const VkPhysicalDeviceLimits& limits = vktest::context().properties().limits;
    const SorterOptions options{1024, 4};
    if (options.workgroupSize > std::min(limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0])) {
        WARN("the device's workgroups are smaller");
        return;
    }
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(vktest::context(), options);
    VksortSorter probe = VK_NULL_HANDLE;
    if (vksortCreateSorter(&info, &probe) != VK_SUCCESS) {
        WARN("the device cannot run " << options.workgroupSize << " x " << options.keysPerThread);
        return;
    }
    vksortDestroySorter(probe);
    const VksortSorterProperties p = vktest::properties(vktest::sorter(options));
    INFO("tile " << p.tileSize << " (" << p.workgroupSize << " x " << p.keysPerThread << ")");
    for (const hostdata::Distribution& d : {vktest::dist(Distribution::Equal), vktest::dist(Distribution::Uniform)}) {
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_FLOAT64}) {
            for (uint32_t count : {p.singleDispatchMaxCount, 3 * p.tileSize + p.tileSize / 2 + 1}) {
                Case c;
                c.sorter = options;
                c.key = key;
                c.value = key == VKSORT_KEY_TYPE_UINT32 ? VKSORT_VALUE_TYPE_UINT32 : VKSORT_VALUE_TYPE_NONE;
                c.count = count;
                c.dist = d;
                c.endBit = key == VKSORT_KEY_TYPE_UINT32 ? 0 : 20;
                vktest::sortAndCheck(c);
            }
        }
    }
    vktest::requireCleanValidation();
}

TEST_CASE("keysPerThread 1 to 3 build valid pipelines and sort", "[sort]") {
    // The tile counts load 16-byte vectors, 4 u32 or 2 u64 keys each. Fewer keys per thread than
    // keys per vector must still give valid shaders (the validation layer checks the SPIR-V
    // after specialization), and sort. (5 and 6, not multiples, are in kTileShapes.)
    for (uint32_t keysPerThread = 1; keysPerThread <= 3; ++keysPerThread) {
        vktest::SorterOptions options{16, keysPerThread};
        INFO("keysPerThread " << keysPerThread);
        VksortSorter s = vktest::sorter(options);
        // Checked (not required) here so that every keysPerThread reports; then cleared, so
        // that the sorts below check only their own recording and execution.
        std::vector<std::string> messages = vktest::context().validationMessages();
        for (const std::string& m : messages) UNSCOPED_INFO("validation: " << m);
        CHECK(messages.empty());
        vktest::context().clearValidationMessages();
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_UINT64}) {
            Case c;
            c.sorter = options;
            c.key = key;
            c.value = VKSORT_VALUE_TYPE_UINT32;
            c.count = vktest::properties(s).tileSize * 300 + 3; // hundreds of tiles to scan inline
            c.endBit = 12;
            vktest::sortAndCheck(c);
        }
    }
}

TEST_CASE("the issue's acceptance sort: a million keys, three distinct, with values", "[sort][long]") {
    Case c;
    c.count = 1000003;
    c.dist.kind = Distribution::Few;
    c.dist.parameter = 3;
    c.value = VKSORT_VALUE_TYPE_UINT32;
    vktest::sortAndCheck(c);
}

TEST_CASE("every distribution, keys and pairs", "[sort]") {
    const Distribution dists[] = {vktest::dist(Distribution::Uniform),  vktest::dist(Distribution::Sorted),
                                  vktest::dist(Distribution::Reversed), vktest::dist(Distribution::Equal),
                                  vktest::dist(Distribution::Few, 1),   vktest::dist(Distribution::Few, 2),
                                  vktest::dist(Distribution::Few, 17),  vktest::dist(Distribution::Bits, 0),
                                  vktest::dist(Distribution::Bits, 1),  vktest::dist(Distribution::Bits, 4),
                                  vktest::dist(Distribution::Bits, 13), vktest::dist(Distribution::Bits, 33)};
    // A single-workgroup count and a multi-pass one, for a 32-bit and a 64-bit key type each; the
    // sorted and reversed inputs also descending (a reversed input is then already in order).
    for (const Distribution& d : dists) {
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT64, VKSORT_KEY_TYPE_FLOAT32}) {
            for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32}) {
                for (uint32_t count : {3000u, 20011u}) {
                    Case c;
                    c.key = key;
                    c.value = value;
                    c.count = count;
                    c.dist = d;
                    c.seed = count + uint32_t(key);
                    c.order = (count + uint32_t(value)) % 2 == 0 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
                    vktest::sortAndCheck(c);
                }
            }
        }
    }
}

TEST_CASE("random sizes up to 2^20", "[sort][long]") {
    const struct {
        uint32_t count;
        VksortKeyType key;
        VksortValueType value;
    } cases[] = {{77777, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32},
                 {300001, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_INDEX},
                 {611953, VKSORT_KEY_TYPE_INT32, VKSORT_VALUE_TYPE_NONE},
                 {1u << 20, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32},
                 {123457, VKSORT_KEY_TYPE_UINT64, VKSORT_VALUE_TYPE_UINT64}};
    for (const auto& k : cases) {
        Case c;
        c.count = k.count;
        c.key = k.key;
        c.value = k.value;
        c.seed = k.count;
        vktest::sortAndCheck(c);
    }
}

TEST_CASE("ranges at offsets inside larger buffers, capacity above the count", "[sort]") {
    // offsetUnits 0 puts a range at the very start of its buffer; larger ones deep inside. The
    // capacity decides the scratch layout and the tables' row stride, the count what is sorted.
    for (uint32_t offsetUnits : {0u, 2u, 7u}) {
        for (VksortValueType value : vktest::allValueTypes()) {
            for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_FLOAT64}) {
                for (uint32_t endBit : {0u, 20u}) { // 8 or 16 passes (even), 5 (odd: result in scratch)
                    Case c;
                    c.key = key;
                    c.value = value;
                    c.count = 9000 + offsetUnits;
                    c.maxCount = 30011;
                    c.offsetUnits = offsetUnits;
                    c.endBit = endBit;
                    c.seed = offsetUnits * 10 + uint32_t(value);
                    vktest::sortAndCheck(c);
                }
            }
        }
    }
    // A count far below the capacity and a single-workgroup count in a large binding.
    Case c;
    c.count = 70;
    c.maxCount = 100000;
    c.offsetUnits = 3;
    c.value = VKSORT_VALUE_TYPE_UINT64;
    vktest::sortAndCheck(c);
    c.count = 5000;
    c.endBit = 4;
    vktest::sortAndCheck(c);
}

TEST_CASE("more than 65535 workgroups: the grid splits into rows", "[sort][long]") {
    // 64 keys per tile (16 x 4, the smallest tile whose pipelines are valid today: see "every
    // keysPerThread from 1 to 9...") and 65537 tiles and a bit: a second grid row on a device
    // whose maxComputeWorkGroupCount[0] is 65535 (lavapipe, and most GPUs). Two passes run the
    // tile counts and the reorders with the split at a fraction of a full sort's cost.
    const uint32_t maxX = vktest::context().properties().limits.maxComputeWorkGroupCount[0];
    SorterOptions options{16, 4, 0, true};
    VksortSorter s = vktest::sorter(options);
    const uint32_t tile = vktest::properties(s).tileSize;
    uint64_t count64 = (uint64_t(std::min(maxX, 65535u)) + 1) * tile + 1;
    if (count64 > vktest::properties(s).maxCount32) {
        WARN("the device cannot bind " << count64 << " keys; skipped");
        return;
    }
    Case c;
    c.sorter = options;
    c.count = uint32_t(count64);
    c.endBit = 8;
    vktest::commandLog() = {};
    vktest::sortAndCheck(c);
    // The tile dispatches really used a second row, and no row was too wide.
    const uint32_t tiles = (c.count + tile - 1) / tile;
    uint32_t split = 0;
    for (const auto& d : vktest::commandLog().dispatches) {
        CHECK(d[0] <= maxX);
        if (d[1] >= 2 && uint64_t(d[0]) * d[1] >= tiles) ++split;
    }
    // The tile counts and both reorders; none where one row holds every tile (NVIDIA: 2^31 - 1
    // per row). The scan step's grid is one workgroup per range of tiles (at most 64).
    CHECK(split == (tiles > maxX ? 3u : 0u));
}

TEST_CASE("more than 65535 workgroups with the count read on the GPU: the reorders find their "
          "tiles past the first row",
          "[sort][long][indirect]") {
    // As above, through vksortCmdSortIndirect: the tile counts launch for the capacity in rows,
    // and the reorders, launched from the arguments they write, read the tile count from the
    // tables where their grid has more than one row (common.glsl, launchedTileCount).
    vkctx::Context& ctx = vktest::context();
    const uint32_t maxX = ctx.properties().limits.maxComputeWorkGroupCount[0];
    SorterOptions options{16, 4, 0, true};
    VksortSorter s = vktest::sorter(options);
    const uint32_t tile = vktest::properties(s).tileSize;
    const uint64_t count64 = (uint64_t(std::min(maxX, 65535u)) + 1) * tile + 1;
    if (count64 > vktest::properties(s).maxCount32) {
        WARN("the device cannot bind " << count64 << " keys; skipped");
        return;
    }
    const uint32_t count = uint32_t(count64), beginBit = 0, endBit = 8;
    vktest::BindingsRig rig(ctx, s, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, count);
    hostdata::Data input = hostdata::generate(VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, count, {}, 7);
    rig.load(input);
    vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    *static_cast<uint32_t*>(countBuffer.mapped) = count; // (the submission makes it visible)
    VksortSortInfo info{};
    info.bindings = rig.bindings();
    info.beginBit = beginBit;
    info.endBit = endBit;
    VksortSortResult where{};
    vktest::commandLog() = {};
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vktest::hostToCompute(cmd);
        REQUIRE(vksortCmdSortIndirect(cmd, s, &info, countBuffer.buffer, 0, &where) == VK_SUCCESS);
        vktest::computeToHost(cmd);
    });
    const uint32_t tiles = (count + tile - 1) / tile;
    uint32_t split = 0;
    for (const auto& d : vktest::commandLog().dispatches) {
        CHECK(d[0] <= maxX);
        if (d[1] >= 2 && uint64_t(d[0]) * d[1] >= tiles) ++split;
    }
    CHECK(split == (tiles > maxX ? 1u : 0u)); // the tile counts, the one direct dispatch
    auto permutation = hostdata::referencePermutation(input, VKSORT_ORDER_ASCENDING, beginBit, endBit);
    hostdata::Verdict verdict = hostdata::verify(input, permutation, rig.mapped(where.keys), nullptr);
    INFO(verdict.detail);
    CHECK(verdict.ok);
    ctx.destroyBuffer(countBuffer);
    vktest::requireCleanValidation();
}

TEST_CASE("counts read on the GPU through scan steps of one range and of several, one sort after another on "
          "the same scratch",
          "[sort][indirect]") {
    // A row with 32-key tiles whose scan steps split more than 16 tiles into ranges of at least 4
    // (up to 64 of them) and scan inline up to 4 tiles: a capacity of 6000 keys (188 tiles, 47
    // ranges). Each count is sorted after a larger one on the same scratch, whose counts tables
    // still hold the larger sort's counts past the tiles of the count. Counts of several ranges,
    // of one range, of a few tiles past the inline scan, of the inline scan, and the capacity
    // again; with and without skipping constant digits (the first scan step then decides which
    // passes run and launches the later scan steps), by bindings and, where the sorter pushes, at
    // record time.
    vkctx::Context& ctx = vktest::context();
    vksort::TuningRow row = vksort::kTuningTable[1];
    row.tile = {16, 2};
    row.single.keysPerThread = 1;
    row.compare.maxCount = 0;
    row.merge.maxCount = 0;
    row.scan = {4, 64, 16, 4, 2};
    vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    uint32_t sorted = 0;
    for (bool skip : {false, true}) {
        SorterOptions options;
        options.skipPasses = skip;
        VksortSorter sorter = rowSorter(row, options);
        const VksortSorterProperties p = vktest::properties(sorter);
        REQUIRE(p.tileSize == 32);
        const uint32_t capacity = 6000;
        for (bool pushed : {false, true}) {
            if (pushed && (p.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) == 0) continue;
            vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, capacity);
            for (uint32_t count : {6000u, 3001u, 400u, 129u, 100u, 6000u}) {
                INFO("capacity " << capacity << ", count " << count << (pushed ? ", pushed" : ", bindings")
                                 << (skip ? ", skipping constant digits" : ""));
                hostdata::Data input = hostdata::generate(VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, count,
                                                          vktest::dist(skip ? Distribution::Bits : Distribution::Uniform, 20),
                                                          2100 + count);
                vktest::sortIndirectAndCheck(ctx, sorter, rig, input, countBuffer, count, pushed, VKSORT_ORDER_ASCENDING, 0, 32);
                ++sorted;
            }
        }
        vksortDestroySorter(sorter);
    }
    CHECK(sorted >= 12);
    ctx.destroyBuffer(countBuffer);
    vktest::requireCleanValidation();
}

TEST_CASE("a Vulkan 1.1 device with no extension or feature enabled", "[sort][device]") {
    vkctx::ContextOptions options;
    options.minimalVulkan11 = true;
    vkctx::Context ctx(options);
    vktest::VolkScope scope(ctx);
    REQUIRE(ctx.apiVersion() == VK_API_VERSION_1_1);
    REQUIRE_FALSE(ctx.subgroupSizeControlEnabled());
    VksortSorter s = vktest::createSorter(ctx);
    VksortSorterProperties p = vktest::properties(s);
    for (VksortValueType value : vktest::allValueTypes()) {
        for (uint32_t count : {1000u, p.tileSize * 5 + 7}) {
            for (VksortKeyType key : {VKSORT_KEY_TYPE_FLOAT32, VKSORT_KEY_TYPE_INT64}) {
                Case c;
                c.key = key;
                c.value = value;
                c.count = count;
                c.order = value == VKSORT_VALUE_TYPE_INDEX ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
                c.endBit = value == VKSORT_VALUE_TYPE_UINT32 ? 28 : 0; // 7 passes: odd
                vktest::sortAndCheck(c, s, &ctx);
            }
        }
    }
    vksortDestroySorter(s);
    vktest::requireCleanValidation(ctx);
}

TEST_CASE("every subgroup size the device offers for compute", "[sort][subgroups]") {
    vkctx::Context& ctx = vktest::context();
    VkPhysicalDeviceSubgroupSizeControlProperties control{};
    if (!vktest::requiredSubgroupSizes(ctx, &control)) return; // only the default size, tested elsewhere
    uint32_t tested = 0;
    for (uint32_t size = control.minSubgroupSize; size <= control.maxSubgroupSize; size *= 2) {
        // The default tile shape (workgroupSize 0: the sorter must pick one that fits this
        // subgroup size, maxComputeWorkgroupSubgroups included), and a small one whose
        // workgroup holds few subgroups (or one).
        for (uint32_t workgroupSize : {0u, 16u}) {
            SorterOptions options;
            options.requiredSubgroupSize = size;
            options.workgroupSize = workgroupSize;
            if (workgroupSize != 0) options.keysPerThread = 4;
            if (workgroupSize != 0 && workgroupSize < size) continue;
            INFO("required subgroup size " << size << ", workgroupSize " << workgroupSize << " (device: "
                                           << control.maxComputeWorkgroupSubgroups
                                           << " subgroups per workgroup at most)");
            // Created here rather than by vktest::sorter() so that a refusal is reported and
            // the other sizes still run.
            VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx, options);
            vktest::MessageLog log;
            info.pfnMessageCallback = vktest::MessageLog::callback;
            info.pMessageUserData = &log;
            VksortSorter s = VK_NULL_HANDLE;
            VkResult created = vksortCreateSorter(&info, &s);
            INFO("vksortCreateSorter: " << vkctx::resultName(created) << " " << log.all());
            CHECK(created == VK_SUCCESS);
            if (created != VK_SUCCESS) continue;
            VksortSorterProperties p = vktest::properties(s);
            CHECK(p.subgroupSize == size);
            // Hundreds of tiles: cheap with the small tile only.
            std::vector<uint32_t> counts = {100u, p.singleDispatchMaxCount, p.tileSize * 7 + 3};
            if (p.tileSize <= 256) counts.push_back(p.tileSize * 300 + 1);
            for (uint32_t count : counts) {
                for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT64}) {
                    Case c;
                    c.sorter = options;
                    c.key = value == VKSORT_VALUE_TYPE_NONE ? VKSORT_KEY_TYPE_INT32 : VKSORT_KEY_TYPE_FLOAT64;
                    c.value = value;
                    c.count = count;
                    c.endBit = value == VKSORT_VALUE_TYPE_NONE ? 0 : 36; // 8 passes, 9 passes
                    vktest::sortAndCheck(c, s);
                }
            }
            vksortDestroySorter(s);
            ++tested;
        }
    }
    CHECK(tested > 0);
    vktest::requireCleanValidation();
}

TEST_CASE("timestamps: one query per dispatch slot, in order, none past the range", "[sort][timestamps]") {
    // VksortSortInfo: query 0 before the sort, 1 after the tile counts, 2 + p after the
    // reorder of pass p; the slots of dispatches that do not run (all of a single-workgroup sort)
    // repeat the time before them, and a count of 0 still writes every query.
    vkctx::Context& ctx = vktest::context();
    if (ctx.timestampValidBits() == 0) {
        WARN("the queue family has no timestamps");
        return;
    }
    VksortSorter s = vktest::sorter();
    const VksortSorterProperties p = vktest::properties(s);
    const uint32_t first = 3, poolSize = 64;
    VkQueryPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    poolInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    poolInfo.queryCount = poolSize;
    VkQueryPool pool = VK_NULL_HANDLE;
    REQUIRE(vkCreateQueryPool(ctx.device(), &poolInfo, nullptr, &pool) == VK_SUCCESS);
    // Single workgroup (up to its largest count), few tiles, many tiles; odd and even pass
    // counts, a range not from bit 0; count 0; and the indirect sort, whose count the host does
    // not know when it records.
    struct Variant {
        uint32_t count, beginBit, endBit;
        bool indirect;
    };
    std::vector<Variant> variants;
    for (uint32_t count : {0u, 1000u, 5 * p.tileSize + 1, 300 * p.tileSize}) {
        for (uint32_t endBit : {0u, 12u}) variants.push_back({count, 0, endBit, false});
    }
    variants.push_back({p.singleDispatchMaxCount, 0, 0, false});
    variants.push_back({5 * p.tileSize + 1, 4, 13, false});
    variants.push_back({0, 0, 0, true});
    variants.push_back({5 * p.tileSize + 1, 0, 0, true});
    vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    for (const Variant& v : variants) {
        const uint32_t count = v.count, endBit = v.endBit;
        INFO("count " << count << ", bits " << v.beginBit << ":" << endBit << (v.indirect ? ", indirect" : ""));
        vktest::BindingsRig rig(ctx, s, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, std::max(count, 1u));
        hostdata::Data input = hostdata::generate(VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, count, {}, count);
        rig.load(input);
        *static_cast<uint32_t*>(countBuffer.mapped) = count; // (the submission makes it visible)
        VksortSortInfo info{};
        info.bindings = rig.bindings();
        info.count = v.indirect ? 0 : count;
        info.beginBit = v.beginBit;
        info.endBit = endBit;
        info.timestampQueryPool = pool;
        info.firstTimestampQuery = first;
        VksortSortResult where{};
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, pool, 0, poolSize);
            vktest::hostToCompute(cmd);
            if (v.indirect) {
                REQUIRE(vksortCmdSortIndirect(cmd, s, &info, countBuffer.buffer, 0, &where) == VK_SUCCESS);
            } else {
                REQUIRE(vksortCmdSort(cmd, s, &info, &where) == VK_SUCCESS);
            }
            vktest::computeToHost(cmd);
        });
        // Every query, a count of 0 included (a profiler may be waiting on them).
        const uint32_t written = vksortTimestampQueryCount(where.passCount);
        REQUIRE(first + written <= poolSize);
        // Each query: its value and its availability.
        std::vector<uint64_t> results(2 * poolSize);
        VkResult got = vkGetQueryPoolResults(ctx.device(), pool, 0, poolSize, results.size() * 8, results.data(),
                                             16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        CHECK((got == VK_SUCCESS || got == VK_NOT_READY));
        for (uint32_t q = 0; q < poolSize; ++q) {
            const bool expected = q >= first && q < first + written;
            INFO("query " << q);
            CHECK((results[2 * q + 1] != 0) == expected);
            if (expected && q > first) CHECK(results[2 * q] >= results[2 * (q - 1)]);
        }
        auto permutation = hostdata::referencePermutation(input, VKSORT_ORDER_ASCENDING, v.beginBit, endBit);
        hostdata::Verdict verdict = hostdata::verify(input, permutation, rig.mapped(where.keys), nullptr);
        INFO(verdict.detail);
        CHECK(verdict.ok);
    }
    ctx.destroyBuffer(countBuffer);
    vkDestroyQueryPool(ctx.device(), pool, nullptr);
    vktest::requireCleanValidation();
}

TEST_CASE("a made-up tuning row sorts every path correctly", "[sort][tuning]") {
    // A new device class is one new row (src/tuning.hpp): a row unlike the shipped ones in every
    // field, its code choices the opposite of theirs, sorts correctly through every path: the
    // single-workgroup sort, the inline scan, one scan range and several.
    vksort::TuningRow row;
    row.match = {0x1234, 16, 0};
    row.tile = {64, 3}; // 192 keys, not a whole number of 16-byte vectors per invocation
    row.reorder.wholeTileCopies = false;
    row.reorder.earlyValues = vksort::kAllFormats & ~vksort::kTuningTable[0].reorder.earlyValues;
    row.reorder.lastPassEarly = vksort::kAllFormats & ~vksort::kTuningTable[0].reorder.lastPassEarly;
    row.reorder.inlineScanLoads = 3;
    row.single = {6, 128, 2, 1, true}; // 384 keys in one workgroup; 64-bit keys over 128 invocations
    row.scan = {4, 64, 24, 8, 3};      // inline up to 4 tiles, one range up to 24, ranges of 8 or more
    const VksortKeyType keys[] = {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_FLOAT32, VKSORT_KEY_TYPE_INT64,
                                  VKSORT_KEY_TYPE_FLOAT64};
    const VksortValueType values[] = {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32, VKSORT_VALUE_TYPE_INDEX,
                                      VKSORT_VALUE_TYPE_UINT64};
    for (bool skip : {false, true}) {
        SorterOptions options;
        options.skipPasses = skip;
        VksortSorter sorter = rowSorter(row, options);
        const VksortSorterProperties p = vktest::properties(sorter);
        REQUIRE(p.tileSize == 192);
        REQUIRE(p.singleDispatchMaxCount == 384);
        // One key; the single-workgroup limit and one past it; the inline scan's last count; one
        // range; four ranges; 38 ranges, the last short.
        const uint32_t counts[] = {1, 384, 385, 4 * 192, 4 * 192 + 1, 25 * 192 - 7, 300 * 192 + 5};
        uint32_t n = 0;
        for (uint32_t count : counts) {
            for (size_t f = 0; f < 4; ++f) {
                Case c;
                c.key = keys[(f + count) % 4];
                c.value = values[f];
                c.count = count;
                c.dist = n % 3 == 0 ? vktest::dist(Distribution::Few, 5) : vktest::dist(Distribution::Uniform);
                c.order = n % 2 == 0 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
                c.maxCount = count + (n % 4) * 100;
                c.seed = 900 + n++;
                c.sorter = options;
                INFO("made-up row, " << (skip ? "skipping sorter, " : "") << c.describe());
                vktest::sortAndCheck(c, sorter);
            }
        }
        vksortDestroySorter(sorter);
    }
}

TEST_CASE("the compare sort: every key and value type, both orders, bit ranges, chunks and partial workgroups", "[sort][compare]") {
    // A row whose compare sort is unlike the shipped one's: 16 keys per workgroup of 64
    // invocations and chunks of 256 words (256 32-bit keys, 128 64-bit keys), so that a few
    // hundred keys take several chunks and a partial last workgroup; up to 700 keys, above the
    // single-workgroup sort's 512 and the main tile's 256 (with an even pass count, it takes only
    // counts above the main tile); bit ranges of P of the key's K passes up to P / K of 1000 keys.
    vksort::TuningRow row = vksort::kTuningTable[1];
    row.tile = {64, 4};
    row.single.keysPerThread = 8;
    row.compare = {700, 64, 16, 4, 1000};
    vkctx::Context& ctx = vktest::context();
    SorterOptions options;
    VksortSorter sorter = rowSorter(row, options);
    REQUIRE(vktest::properties(sorter).compareSortMaxCount == 700);
    REQUIRE(vktest::properties(sorter).compareSortShareCount == 1000);
    const VksortSorterProperties p = vktest::properties(sorter);
    REQUIRE(p.singleDispatchMaxCount == 512);
    REQUIRE(p.tileSize == 256);
    // Over all bits (an even pass count) the main tile's counts keep the one-dispatch sort; from
    // one more the compare sort takes them, the single-workgroup sort's limit and above too.
    CHECK(vksortTakesCompareSort(&p, VKSORT_KEY_TYPE_UINT32, 8, 256) == VK_FALSE);
    CHECK(vksortTakesCompareSort(&p, VKSORT_KEY_TYPE_UINT32, 8, 257) == VK_TRUE);
    CHECK(vksortTakesCompareSort(&p, VKSORT_KEY_TYPE_UINT64, 16, 512) == VK_TRUE);
    // One key; a workgroup's keys and one more; a 32-bit chunk, the main tile's count, and one
    // more; the single-workgroup sort's limit and one more; the limit and one past it (the
    // passes). All bits give an even pass count (the result copied back), the other ranges an
    // odd one (the result in the scratch buffer).
    sortRangeCases(sorter, options, {1, 2, 16, 17, 129, 256, 257, 300, 512, 513, 700, 701}, "compare row, ", 1700);

    // vksortCmdSortIndirect takes it by the capacity, for any count read: none, one, part of a
    // workgroup's keys, the main tile's, the capacity and past it (clamped); through the bindings
    // and, where the sorter pushes, at record time; all bits (the copy back) and 7 passes.
    vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    uint32_t compared = 0;
    for (uint32_t capacity : {300u, 700u}) {
        for (uint32_t endBit : {0u, 28u}) {
            REQUIRE(vksortTakesCompareSort(&p, VKSORT_KEY_TYPE_FLOAT32, endBit == 0 ? 8 : 7, capacity) == VK_TRUE);
            for (bool pushed : {false, true}) {
                if (pushed && (p.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) == 0) continue;
                for (uint32_t count : {0u, 1u, 20u, 256u, capacity, capacity + 5}) {
                    const uint32_t sorted = std::min(count, capacity);
                    INFO("indirect, capacity " << capacity << ", count " << count << ", bits 0:" << endBit
                                               << (pushed ? ", pushed" : ", bindings"));
                    vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, capacity);
                    hostdata::Data input = hostdata::generate(VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, sorted,
                                                              vktest::dist(Distribution::Few, 5), 1800 + count);
                    vktest::sortIndirectAndCheck(ctx, sorter, rig, input, countBuffer, count, pushed, VKSORT_ORDER_DESCENDING,
                                                 0, endBit);
                    ++compared;
                }
            }
        }
    }
    CHECK(compared >= 24);
    ctx.destroyBuffer(countBuffer);
    vktest::requireCleanValidation();
    vksortDestroySorter(sorter);
}

TEST_CASE("the merge sort: every key and value type, both orders, bit ranges, partial chunks and blocks, windows "
          "in shared memory and too long for it",
          "[sort][merge]") {
    // Rows whose merge sort is unlike the shipped one's: chunks of 256 keys (the single-workgroup
    // sort's tile), up to 16 chunks, no compare sort; merged by workgroups of 128 invocations, 4
    // per key (blocks of 32 keys), 2 per 32-bit key from 1000 keys (wide blocks of 64; a sample
    // every 4 keys, windows of the block and three samples' strides: most fit shared memory), or
    // of 16 invocations (blocks of 4 and 8 keys: fewer invocations than the 32 window ends of 16
    // chunks). Few distinct keys make windows too long for shared memory, searched in memory. A third row has a main tile of 128 keys, half the
    // single-workgroup sort's: chunks of 128 keys up to 16 of them, through single_main, and of
    // 256 keys above. A fourth sorts the chunks of both key widths by comparisons (chunk_sort:
    // 64 invocations of 4 keys, six merge rounds) instead of passes.
    for (uint32_t mainKeys : {4u, 2u}) {
      for (uint32_t workgroup : {128u, 16u}) {
       for (bool compared : {false, true}) {
        if (mainKeys == 2u && workgroup == 16u) continue;
        if (compared && (mainKeys == 2u || workgroup == 16u)) continue;
        vksort::TuningRow row = vksort::kTuningTable[1];
        row.tile = {64, mainKeys};
        row.single.keysPerThread = 4;
        row.compare.maxCount = 0;
        row.merge = {4096, workgroup, 4, 4, compared ? 2u : 0u, compared ? 2u : 0u, 2, 1000};
        vkctx::Context& ctx = vktest::context();
        SorterOptions options;
        VksortSorter sorter = rowSorter(row, options);
        const VksortSorterProperties p = vktest::properties(sorter);
        REQUIRE(p.mergeSortMaxCount == 4096);
        REQUIRE(p.mergeSortMaxCount64 == 4096);
        REQUIRE(p.singleDispatchMaxCount == 256);
        // One past the single-workgroup sort (a chunk of one key); a partial block; two whole
        // chunks and one more key; a partial chunk; 7 and 8 chunks, and one more; 16 chunks, the
        // limit, and one past it (the passes). All bits
        // let the merge write the caller's ranges; the odd pass counts sort the chunks in place
        // and leave the result in the scratch buffer; one pass never takes the merge sort.
        uint32_t merged[2] = {0, 0};
        // The row that compares chunks also sorts counts of one workgroup by comparisons.
        std::vector<uint32_t> counts = {257, 300, 513, 1000, 1793, 2048, 2049, 4095, 4096, 4097};
        if (compared) counts.insert(counts.begin(), {1, 100, 256});
        sortRangeCases(sorter, options, counts,
                       "merge row, main tile " + std::to_string(64 * mainKeys) + ", " + std::to_string(workgroup) +
                           " invocations, " + (compared ? "chunks sorted by comparisons, " : ""),
                       2300, [&](const Case& c) {
                           const uint32_t keyBits = vksortKeySize(c.key) * 8;
                           const uint32_t end = c.endBit == 0 ? keyBits : c.endBit;
                           const uint32_t passes = (end - c.beginBit + 3) / 4;
                           merged[keyBits / 64] += vksortTakesMergeSort(&p, c.key, passes, c.count) == VK_TRUE ? 1 : 0;
                       });
        // Both key widths took the merge sort, up to 16 chunks.
        CHECK(merged[0] >= 20);
        CHECK(merged[1] >= 20);
        CHECK(vksortTakesMergeSort(&p, VKSORT_KEY_TYPE_UINT64, 16, 4096) == VK_TRUE);
        CHECK(vksortTakesMergeSort(&p, VKSORT_KEY_TYPE_UINT64, 16, 4097) == VK_FALSE);
        // vksortCmdSortIndirect takes it by the capacity, for any count read: none, one, one
        // chunk's keys and one more, partial chunks, the capacity and past it (clamped); through
        // the bindings and, where the sorter pushes, at record time; u32 and u64 keys with values.
        vkctx::Buffer countBuffer =
            ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
        const uint32_t capacity = 4096;
        for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_UINT64}) {
            REQUIRE(vksortTakesMergeSort(&p, key, vksortKeySize(key) * 2, capacity) == VK_TRUE);
            for (bool pushed : {false, true}) {
                if (pushed && (p.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) == 0) continue;
                for (uint32_t count : {0u, 1u, 256u, 257u, 1000u, 3000u, capacity, capacity + 5}) {
                    const uint32_t sorted = std::min(count, capacity);
                    INFO("indirect, capacity " << capacity << ", count " << count << (pushed ? ", pushed" : ", bindings")
                                               << ", " << vksortKeySize(key) * 8 << "-bit keys");
                    vktest::BindingsRig rig(ctx, sorter, key, VKSORT_VALUE_TYPE_UINT32, capacity);
                    hostdata::Data input = hostdata::generate(key, VKSORT_VALUE_TYPE_UINT32, sorted,
                                                              vktest::dist(Distribution::Few, 300), 2400 + count);
                    vktest::sortIndirectAndCheck(ctx, sorter, rig, input, countBuffer, count, pushed, VKSORT_ORDER_ASCENDING, 0, 0);
                }
            }
        }
        ctx.destroyBuffer(countBuffer);
        vktest::requireCleanValidation();
        // Only a sorter that sorts its chunks by comparisons has their pipelines.
        uint32_t pipelineCount = 0;
        REQUIRE(vksortGetSorterPipelines(sorter, &pipelineCount, nullptr) == VK_SUCCESS);
        std::vector<VksortPipelineInfo> pipelines(pipelineCount);
        REQUIRE(vksortGetSorterPipelines(sorter, &pipelineCount, pipelines.data()) == VK_SUCCESS);
        uint32_t chunkSorts = 0;
        for (const VksortPipelineInfo& info : pipelines) chunkSorts += std::string(info.name).rfind("chunk_sort_", 0) == 0;
        CHECK(chunkSorts == (compared ? 6u : 0u));
        vksortDestroySorter(sorter);
       }
      }
    }
}
