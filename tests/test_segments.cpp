// SPDX-License-Identifier: MIT
// [segments] vksortCmdSortSegments: every segment sorted on its own, stably, checked against
// std::stable_sort segment by segment (harness/segments.hpp); keys outside every segment left as
// they were; nothing written outside the ranges; invalid usage refused with nothing recorded.
// Segment offsets need push descriptors (the ctest entries with VKSORT_TEST_PUSH_DESCRIPTORS=1);
// uniform segments run with either binding model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "objects.hpp"
#include "segments.hpp"
#include "support.hpp"

namespace {

struct SegmentCase {
    VksortKeyType key = VKSORT_KEY_TYPE_UINT32;
    VksortValueType value = VKSORT_VALUE_TYPE_NONE;
    VksortOrder order = VKSORT_ORDER_ASCENDING;
    uint32_t beginBit = 0, endBit = 0;
    uint32_t count = 0;              // keys bound (and sorted where a segment covers them)
    std::vector<uint32_t> offsets;   // segmentCount + 1 (ignored with segmentSize)
    uint32_t segmentSize = 0;        // uniform segments
    uint32_t segmentCount = 0;       // with segmentSize
    // By offsets: the segment count read on the GPU (segmentCountBuffer), which may exceed the
    // offsets' segments (then they are all sorted).
    bool countOnGpu = false;
    uint32_t gpuSegmentCount = 0;
    uint64_t seed = 1;
};

// The process's segmented sorter that pushes its descriptors (`push`, where the context does) or
// binds sets.
VksortSorter segmentSorter(bool push) {
    vktest::SorterOptions options;
    options.segmented = true;
    options.boundSets = !push;
    return vktest::sorter(options);
}

bool pushAvailable() {
    return (vktest::sorterCreateInfo(vktest::context()).flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
}

// The segments as the sort sees them: the offsets clamped to the count, each end at least its start.
std::vector<uint32_t> effectiveRanges(const SegmentCase& c, std::vector<uint32_t>* begins) {
    std::vector<uint32_t> ends;
    uint32_t n = c.segmentSize != 0 ? c.segmentCount : uint32_t(c.offsets.size() - 1);
    if (c.countOnGpu) n = std::min(n, c.gpuSegmentCount);
    for (uint32_t s = 0; s < n; ++s) {
        uint64_t b, e;
        if (c.segmentSize != 0) {
            b = std::min<uint64_t>(uint64_t(s) * c.segmentSize, c.count);
            e = std::min<uint64_t>(b + c.segmentSize, c.count);
        } else {
            b = std::min(c.offsets[s], c.count);
            e = std::max<uint64_t>(b, std::min(c.offsets[s + 1], c.count));
        }
        begins->push_back(uint32_t(b));
        ends.push_back(uint32_t(e));
    }
    return ends;
}

// Checks a segmented sort of `input` by `c` whose result `where` says: every segment sorted on
// its own, the keys outside them as they were, the guard bands and the validation layer.
void checkSegments(const SegmentCase& c, const hostdata::Data& input, vktest::BindingsRig& rig,
                   const VksortSortResult& where) {
    std::vector<uint32_t> begins;
    const std::vector<uint32_t> ends = effectiveRanges(c, &begins);
    const uint32_t keyBytes = vksortKeySize(c.key), valueBytes = vksortValueSize(c.value);
    const uint8_t* outKeys = rig.mapped(where.keys);
    const uint8_t* outValues = c.value != VKSORT_VALUE_TYPE_NONE ? rig.mapped(where.values) : nullptr;
    std::vector<bool> covered(c.count, false);
    for (size_t s = 0; s < begins.size(); ++s) {
        INFO("segment " << s << ": [" << begins[s] << ", " << ends[s] << ")");
        // The segment alone, as a sort of its keys whose values count from the array's start.
        hostdata::Data part;
        part.keyType = c.key;
        part.valueType = c.value;
        part.count = ends[s] - begins[s];
        part.keys.assign(input.keys.begin() + size_t(begins[s]) * keyBytes, input.keys.begin() + size_t(ends[s]) * keyBytes);
        if (!input.values.empty()) {
            part.values.assign(input.values.begin() + size_t(begins[s]) * valueBytes,
                               input.values.begin() + size_t(ends[s]) * valueBytes);
        }
        std::vector<uint32_t> permutation = hostdata::referencePermutation(part, c.order, c.beginBit, c.endBit);
        std::vector<uint8_t> values;
        const uint8_t* segmentValues = outValues != nullptr ? outValues + size_t(begins[s]) * valueBytes : nullptr;
        if (c.value == VKSORT_VALUE_TYPE_INDEX) {
            // Indices of the whole array: shift them to the segment's own for hostdata::verify.
            values.resize(size_t(part.count) * 4);
            for (uint32_t i = 0; i < part.count; ++i) {
                uint32_t v;
                std::memcpy(&v, segmentValues + size_t(i) * 4, 4);
                v -= begins[s];
                std::memcpy(values.data() + size_t(i) * 4, &v, 4);
            }
            segmentValues = values.data();
        }
        hostdata::Verdict verdict =
            hostdata::verify(part, permutation, outKeys + size_t(begins[s]) * keyBytes, segmentValues);
        INFO(verdict.detail);
        REQUIRE(verdict.ok);
        for (uint32_t i = begins[s]; i < ends[s]; ++i) covered[i] = true;
    }
    // Keys outside every segment: as they were in the caller's buffer (the scratch's are undefined).
    if (!where.inScratch) {
        for (uint32_t i = 0; i < c.count; ++i) {
            if (covered[i]) continue;
            INFO("key " << i << " lies in no segment");
            REQUIRE(std::memcmp(rig.keys() + size_t(i) * keyBytes, input.keys.data() + size_t(i) * keyBytes, keyBytes) == 0);
        }
    }
    std::string damage = rig.guardDamage();
    INFO(damage);
    CHECK(damage.empty());
    vktest::requireCleanValidation(vktest::context());
}

// A host-visible buffer holding `words` from byte `at` (not aligned to the storage-buffer offset
// alignment, as a caller's range need not be).
vkctx::Buffer wordsBuffer(const std::vector<uint32_t>& words, VkDeviceSize at) {
    vkctx::Buffer b = vktest::context().createBuffer(at + words.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    std::memcpy(static_cast<uint8_t*>(b.mapped) + at, words.data(), words.size() * 4);
    return b;
}

// Sorts `c` with vksortCmdSortSegments and checks it (checkSegments).
// `expected`, where given, is what the sort must leave (offsets that decrease: its segments before
// the first decrease).
void sortSegmentsAndCheck(const SegmentCase& c, bool push, VksortSorter sorter = VK_NULL_HANDLE,
                          const SegmentCase* expected = nullptr) {
    vkctx::Context& ctx = vktest::context();
    if (sorter == VK_NULL_HANDLE) sorter = segmentSorter(push);
    INFO("keys " << hostdata::toString(c.key) << ", values " << hostdata::toString(c.value) << ", count " << c.count
                 << ", " << (c.segmentSize != 0 ? "uniform segments" : "offsets") << ", push " << push
                 << (c.countOnGpu ? ", segment count on the GPU " + std::to_string(c.gpuSegmentCount) : ""));
    hostdata::Distribution dist;
    hostdata::Data input = hostdata::generate(c.key, c.value, c.count, dist, c.seed);
    const uint32_t capacity = std::max(c.count, 1u);
    vktest::BindingsRig rig(ctx, sorter, c.key, c.value, capacity);
    rig.load(input);
    // Scratch starts as a pattern, so that untouched positions of a result there are recognizable.
    std::memset(rig.scratch(), 0xA5, rig.scratchSize());

    vkctx::Buffer offsets{}, count{};
    const VkDeviceSize offsetsAt = 12, countAt = 20;
    VksortSegmentsInfo segments{};
    if (c.segmentSize != 0) {
        segments.segmentCount = c.segmentCount;
        segments.segmentSize = c.segmentSize;
    } else {
        segments.segmentCount = uint32_t(c.offsets.size() - 1);
        offsets = wordsBuffer(c.offsets, offsetsAt);
        segments.offsetsBuffer = offsets.buffer;
        segments.offsetsOffset = offsetsAt;
    }
    if (c.countOnGpu) {
        count = wordsBuffer({c.gpuSegmentCount}, countAt);
        segments.segmentCountBuffer = count.buffer;
        segments.segmentCountOffset = countAt;
    }
    VksortSortInfo info = rig.sortInfo(push, c.count, c.order, c.beginBit, c.endBit);
    VksortSortResult where{};
    REQUIRE(vksortGetSortResult(sorter, &info, &where) == VK_SUCCESS);
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vktest::hostToCompute(cmd);
        VksortSortResult recorded{};
        REQUIRE(vksortCmdSortSegments(cmd, sorter, &info, &segments, &recorded) == VK_SUCCESS);
        REQUIRE(recorded.inScratch == where.inScratch);
        vktest::computeToHost(cmd);
    });
    checkSegments(expected != nullptr ? *expected : c, input, rig, where);
    if (offsets.buffer != VK_NULL_HANDLE) ctx.destroyBuffer(offsets);
    if (count.buffer != VK_NULL_HANDLE) ctx.destroyBuffer(count);
}

// Sorts `c` (by offsets) and checks it, then again with the count of its first `gpuSegments`
// segments read on the GPU.
void sortWithAndWithoutGpuCount(SegmentCase c, uint32_t gpuSegments, VksortSorter sorter) {
    sortSegmentsAndCheck(c, true, sorter);
    c.countOnGpu = true;
    c.gpuSegmentCount = gpuSegments;
    sortSegmentsAndCheck(c, true, sorter);
}

// A made-up tuning row whose classes are all small enough for many of each on lavapipe: tiny
// segments up to 16 keys, short ones up to 64, mid-sized up to the 192 keys of the main tile, one
// workgroup up to 384.
vksort::TuningRow smallClassesRow() {
    vksort::TuningRow row = vksort::kTuningTable[0];
    row.match = {0x1234, 16, 0};
    row.tile = {64, 3};
    row.single = {6, 128, 2, 1, true};
    row.segments.tinyKeys = 16;
    row.segments.shortTile = {16, 4};
    return row;
}

// A segmented sorter with a made-up tuning row (vksort::createSorter), and whether it pushes its
// descriptors.
VksortSorter rowSorter(const vksort::TuningRow& row, bool skipPasses, bool* push) {
    vktest::SorterOptions options;
    options.segmented = true;
    options.skipPasses = skipPasses;
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(vktest::context(), options);
    VksortSorter sorter = VK_NULL_HANDLE;
    REQUIRE(vksort::createSorter(&info, &row, &sorter) == VK_SUCCESS);
    *push = (info.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
    return sorter;
}

// A layout's offsets (harness/segments.hpp).
std::vector<uint32_t> layoutOffsets(const std::string& text, uint64_t seed) {
    segmented::SegmentLayout layout;
    std::string why;
    REQUIRE(segmented::parseLayout(text, &layout, &why));
    std::vector<uint32_t> offsets;
    REQUIRE(segmented::segmentOffsets(layout, seed, &offsets));
    return offsets;
}

} // namespace

TEST_CASE("segmented sorts of uniform segments, every key and value type", "[segments]") {
    const uint32_t single = vktest::properties(segmentSorter(false)).singleDispatchMaxCount;
    for (bool push : {false, true}) {
        if (push && !pushAvailable()) continue;
        for (VksortKeyType key : vktest::allKeyTypes()) {
            for (VksortValueType value : vktest::allValueTypes()) {
                SegmentCase c;
                c.key = key;
                c.value = value;
                // Segments one key past what one workgroup sorts, and a short last one.
                c.segmentSize = single + 1;
                c.segmentCount = 4;
                c.count = 3 * c.segmentSize + 7;
                c.seed = key * 10 + value;
                sortSegmentsAndCheck(c, push);
            }
        }
    }
}

TEST_CASE("segmented sorts at the one-workgroup boundary, orders and bit ranges", "[segments]") {
    const uint32_t single = vktest::properties(segmentSorter(false)).singleDispatchMaxCount;
    const bool push = pushAvailable();
    // Around the tiny segments' limit (an invocation per key), the short tile's, the main tile's
    // (the mid-sized segments') and the one-workgroup limit.
    const uint32_t tile = vktest::properties(segmentSorter(false)).tileSize;
    const uint32_t tiny = segmentSorter(false)->tinyMaxCount;
    const uint32_t shortTile = segmentSorter(false)->shortMaxCount;
    for (uint32_t size : {1u, 2u, tiny - 1, tiny, tiny + 1, shortTile, shortTile + 1, tile, tile + 1, single - 1, single, single + 1,
                          3 * single + 5}) {
        for (VksortOrder order : {VKSORT_ORDER_ASCENDING, VKSORT_ORDER_DESCENDING}) {
            SegmentCase c;
            c.key = VKSORT_KEY_TYPE_FLOAT32;
            c.value = VKSORT_VALUE_TYPE_UINT32;
            c.order = order;
            c.segmentSize = size;
            c.segmentCount = 3;
            c.count = 3 * size;
            sortSegmentsAndCheck(c, push);
        }
    }
    // Many segments of one workgroup each, 64-bit keys (a wider workgroup on some rows).
    for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT64, VKSORT_KEY_TYPE_UINT32}) {
        SegmentCase c;
        c.key = key;
        c.segmentSize = 100;
        c.segmentCount = 600;
        c.count = 60000;
        sortSegmentsAndCheck(c, push);
    }
    // Odd and even pass counts (the result in the scratch or in place), a bit range inside the key.
    for (uint32_t end : {4u, 12u, 20u}) {
        SegmentCase c;
        c.key = VKSORT_KEY_TYPE_UINT64;
        c.value = VKSORT_VALUE_TYPE_INDEX;
        c.beginBit = 4;
        c.endBit = end + 4;
        c.segmentSize = single * 2 + 3;
        c.segmentCount = 5; // the last one past the count: empty
        c.count = 4 * c.segmentSize - 1;
        sortSegmentsAndCheck(c, push);
    }
}

TEST_CASE("segmented sorts by offsets: layouts, empty and one-key segments, bad offsets", "[segments]") {
    if (!pushAvailable()) {
        SUCCEED("segment offsets need push descriptors: the VKSORT_TEST_PUSH_DESCRIPTORS=1 entry runs these");
        return;
    }
    const uint32_t single = vktest::properties(segmentSorter(true)).singleDispatchMaxCount;
    const std::string big = std::to_string(single * 3 + 1);
    for (const std::string& layout : {std::string("40@0-40"), std::string("30~60"), std::string("300@1-8"),
                                      std::string("3x") + big, std::string("5x0"), std::string("1x1")}) {
        for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT64}) {
            INFO("layout " << layout);
            SegmentCase c;
            c.key = VKSORT_KEY_TYPE_INT32;
            c.value = value;
            c.offsets = layoutOffsets(layout, 7);
            c.count = c.offsets.back();
            sortSegmentsAndCheck(c, true);
        }
    }
    // Keys before the first segment stay; offsets past the count clamp to it; a decreasing last
    // offset makes an empty segment.
    SegmentCase c;
    c.value = VKSORT_VALUE_TYPE_UINT32;
    c.count = 3 * single;
    c.offsets = {5, 100, single + 50, 2 * single, 9 * single, 0xFFFFFFFFu, 7};
    sortSegmentsAndCheck(c, true);
    // An odd pass count: the result in the scratch, for every segment.
    c.endBit = 12;
    sortSegmentsAndCheck(c, true);

    // Offsets that decrease, then rise again to make thousands of segments that overlap, each of
    // every key, more than the lists have room for: the segments before the first decrease are
    // sorted, the later ones (none of them tiny) left as they are, and nothing outside the ranges
    // is written. Also where the decrease lies in a later classify workgroup's share than the
    // first's.
    for (uint32_t lead : {3u, 60u}) {
        SegmentCase d;
        d.value = VKSORT_VALUE_TYPE_UINT32;
        d.offsets = layoutOffsets(std::to_string(lead) + "@200-" + std::to_string(2 * single), 11);
        d.count = d.offsets.back();
        SegmentCase before = d;
        d.offsets.push_back(d.count / 2);
        for (uint32_t i = 0; i < 3000; ++i) d.offsets.insert(d.offsets.end(), {0u, d.count});
        INFO(lead << " segments before the decrease");
        sortSegmentsAndCheck(d, true, VK_NULL_HANDLE, &before);
    }
}

TEST_CASE("segmented sorts by offsets with the segment count on the GPU", "[segments]") {
    if (!pushAvailable()) {
        SUCCEED("segment offsets need push descriptors: the VKSORT_TEST_PUSH_DESCRIPTORS=1 entry runs these");
        return;
    }
    const uint32_t single = vktest::properties(segmentSorter(true)).singleDispatchMaxCount;
    // Segments of every class, then one covering the rest of the keys, which only a count that
    // ignored the GPU's would sort: none, one, some, all but the last, all, more than there are.
    std::vector<uint32_t> offsets = layoutOffsets("120@1-" + std::to_string(2 * single), 5);
    const uint32_t listed = uint32_t(offsets.size() - 1);
    offsets.push_back(offsets.back() + 3 * single);
    for (uint32_t gpu : {0u, 1u, 37u, listed, listed + 1, 0x7FFFFFFFu}) {
        for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_INDEX}) {
            SegmentCase c;
            c.key = VKSORT_KEY_TYPE_FLOAT32;
            c.value = value;
            c.offsets = offsets;
            c.count = offsets.back();
            c.countOnGpu = true;
            c.gpuSegmentCount = gpu;
            c.seed = gpu + value;
            sortSegmentsAndCheck(c, true);
        }
    }
}

TEST_CASE("segmented sorts by offsets: one recorded command buffer replayed with new offsets and counts",
          "[segments]") {
    if (!pushAvailable()) {
        SUCCEED("segment offsets need push descriptors: the VKSORT_TEST_PUSH_DESCRIPTORS=1 entry runs these");
        return;
    }
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = segmentSorter(true);
    const uint32_t single = vktest::properties(sorter).singleDispatchMaxCount;
    const uint32_t maxSegments = 200, capacity = 4 * single + 6000;
    vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, capacity);
    const VkDeviceSize offsetsAt = 8, countAt = 4;
    vkctx::Buffer offsets = wordsBuffer(std::vector<uint32_t>(maxSegments + 1, 0), offsetsAt);
    vkctx::Buffer count = wordsBuffer({0}, countAt);
    VksortSegmentsInfo segments{};
    segments.segmentCount = maxSegments;
    segments.offsetsBuffer = offsets.buffer;
    segments.offsetsOffset = offsetsAt;
    segments.segmentCountBuffer = count.buffer;
    segments.segmentCountOffset = countAt;
    VksortSortInfo info{};
    info.pBuffers = &rig.buffers();
    info.count = capacity;
    VksortSortResult where{};
    VkCommandBuffer cmd = ctx.allocateCommandBuffer();
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    REQUIRE(vkBeginCommandBuffer(cmd, &begin) == VK_SUCCESS);
    vktest::hostToCompute(cmd);
    REQUIRE(vksortCmdSortSegments(cmd, sorter, &info, &segments, &where) == VK_SUCCESS);
    vktest::computeToHost(cmd);
    REQUIRE(vkEndCommandBuffer(cmd) == VK_SUCCESS);
    // Each round: new keys, a new layout (its unused offsets left from the round before) and count.
    const struct {
        const char* layout;
        uint32_t gpuSegments;
    } rounds[] = {{"200@1-40", 200}, {"3x2000", 3}, {"150@0-100", 90}, {"2x1", 0}, {"60~80", 60}, {"1x6000", 1}};
    uint64_t seed = 40;
    for (const auto& r : rounds) {
        INFO("layout " << r.layout << ", segment count on the GPU " << r.gpuSegments);
        std::vector<uint32_t> layout = layoutOffsets(r.layout, ++seed);
        REQUIRE(layout.size() <= maxSegments + 1);
        REQUIRE(layout.back() <= capacity);
        std::memcpy(static_cast<uint8_t*>(offsets.mapped) + offsetsAt, layout.data(), layout.size() * 4);
        std::memcpy(static_cast<uint8_t*>(count.mapped) + countAt, &r.gpuSegments, 4);
        SegmentCase c;
        c.value = VKSORT_VALUE_TYPE_UINT32;
        c.count = capacity;
        c.offsets.assign(static_cast<const uint32_t*>(offsets.mapped) + offsetsAt / 4,
                         static_cast<const uint32_t*>(offsets.mapped) + offsetsAt / 4 + maxSegments + 1);
        c.countOnGpu = true;
        c.gpuSegmentCount = r.gpuSegments;
        hostdata::Distribution dist;
        hostdata::Data input = hostdata::generate(c.key, c.value, c.count, dist, seed);
        rig.load(input);
        ctx.submitAndWait(cmd);
        checkSegments(c, input, rig, where);
    }
    ctx.freeCommandBuffer(cmd);
    ctx.destroyBuffer(offsets);
    ctx.destroyBuffer(count);
}

TEST_CASE("segmented sorts with a made-up tuning row: every class, workgroups taking many batches",
          "[segments]") {
    // Few invocations per tiny dispatch, so that each workgroup takes several batches.
    vksort::TuningRow row = smallClassesRow();
    row.segments.launchThreads = 128;
    bool push = false;
    VksortSorter sorter = rowSorter(row, false, &push);
    REQUIRE(vktest::properties(sorter).singleDispatchMaxCount == 384);
    for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_FLOAT64}) {
        for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_INDEX}) {
            // Uniform segments of each class, many of them.
            for (uint32_t size : {1u, 16u, 17u, 64u, 65u, 192u, 193u, 384u, 385u, 1000u}) {
                SegmentCase c;
                c.key = key;
                c.value = value;
                c.segmentSize = size;
                c.segmentCount = size <= 16 ? 700 : size <= 384 ? 40 : 5;
                c.count = c.segmentCount * size - size / 2;
                sortSegmentsAndCheck(c, push, sorter);
            }
            // Every class in one layout.
            if (push) {
                SegmentCase c;
                c.key = key;
                c.value = value;
                c.offsets = layoutOffsets("900@0-20", 3);
                std::vector<uint32_t> more = layoutOffsets("60@10-1200", 4);
                for (size_t i = 1; i < more.size(); ++i) c.offsets.push_back(c.offsets[900] + more[i]);
                c.count = c.offsets.back();
                sortWithAndWithoutGpuCount(c, 930, sorter);
            }
        }
    }
    vksortDestroySorter(sorter);
}

TEST_CASE("segmented sorts of large segments: scan steps over one and several ranges", "[segments]") {
    // A scan step from 3 tiles per segment, one range up to 8 tiles, ranges of at least 4:
    // segments of 385 keys and more take the passes with tiles of their own, and their offsets
    // come from a scan of every segment's tiles (segments by offsets always have scan steps).
    vksort::TuningRow row = smallClassesRow();
    row.scan.inlineMaxTiles = 2;
    row.scan.oneRangeMaxTiles = 8;
    row.scan.rangeMinTiles = 4;
    row.scan.itemsPerThread = 2;
    for (bool skip : {false, true}) {
        INFO("skipping constant digits " << skip);
        bool push = false;
        VksortSorter sorter = rowSorter(row, skip, &push);
        const struct {
            uint32_t size, segments, count;
        } layouts[] = {{385, 2, 770}, {1000, 8, 8000}, {1001, 30, 29 * 1001 + 500}, {600, 3, 5000}};
        for (const auto& l : layouts) {
            for (VksortKeyType key : {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT64}) {
                const VksortValueType value = key == VKSORT_KEY_TYPE_UINT32 ? VKSORT_VALUE_TYPE_INDEX : VKSORT_VALUE_TYPE_UINT32;
                for (uint32_t end : {0u, 12u}) {
                    SegmentCase c;
                    c.key = key;
                    c.value = value;
                    c.order = end == 0 ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
                    c.endBit = end;
                    c.segmentSize = l.size;
                    c.segmentCount = l.segments;
                    c.count = l.count;
                    c.seed = l.size + end;
                    sortSegmentsAndCheck(c, push, sorter);
                }
            }
        }
        // By offsets: many segments, mostly empty, over few keys, so that each classify workgroup
        // (one per 64 keys of the capacity) takes several chunks, with one segment of each class.
        if (push) {
            SegmentCase c;
            c.value = VKSORT_VALUE_TYPE_UINT32;
            c.count = 1500;
            c.offsets.assign(20001, 0);
            const uint32_t bounds[][2] = {{5000, 200}, {12000, 400}, {12001, 700}, {19000, 1500}};
            for (uint32_t s = 1; s <= 20000; ++s) {
                c.offsets[s] = c.offsets[s - 1] + (s % 7 == 0 && c.offsets[s - 1] < 90 ? 1 : 0);
                for (const auto& b : bounds) {
                    if (s == b[0] + 1) c.offsets[s] = b[1];
                }
                c.offsets[s] = std::max(c.offsets[s], c.offsets[s - 1]);
            }
            sortSegmentsAndCheck(c, true, sorter);
        }
        // By offsets: every class in one layout, and large segments alone, all of them or some.
        for (const char* layout : {"40@1-3000", "30~700", "3x1001", "1x5000"}) {
            if (!push) break;
            for (VksortKeyType key : {VKSORT_KEY_TYPE_FLOAT32, VKSORT_KEY_TYPE_UINT64}) {
                INFO("layout " << layout);
                SegmentCase c;
                c.key = key;
                c.value = VKSORT_VALUE_TYPE_INDEX;
                c.offsets = layoutOffsets(layout, 11);
                c.count = c.offsets.back();
                // (With skipping sorters too, whose sets bind their pass arguments where the
                // count goes.)
                sortWithAndWithoutGpuCount(c, 25, sorter);
            }
        }
        vksortDestroySorter(sorter);
    }
}

TEST_CASE("segmented sorts refuse invalid usage", "[segments][misuse]") {
    vkctx::Context& ctx = vktest::context();
    VksortSorter plain = vktest::sorter();
    VksortSorter sorter = segmentSorter(false);
    vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, 64);
    vktest::BindingsRig plainRig(ctx, plain, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, 64);
    VksortSortInfo info{};
    info.bindings = rig.bindings();
    info.count = 64;
    VksortSegmentsInfo segments{};
    segments.segmentCount = 4;
    segments.segmentSize = 16;
    vktest::AssertRecorder recorder;
    VkCommandBuffer cmd = ctx.allocateCommandBuffer();
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    REQUIRE(vkBeginCommandBuffer(cmd, &begin) == VK_SUCCESS);
    auto refused = [&](VksortSorter s, const VksortSortInfo& i, const VksortSegmentsInfo* seg, const char* text) {
        INFO(text);
        CHECK(vksortCmdSortSegments(cmd, s, &i, seg, nullptr) == VK_ERROR_VALIDATION_FAILED_EXT);
        CHECK(recorder.lastContains(text));
    };
    refused(sorter, info, nullptr, "pSegments must not be NULL");
    VksortSortInfo plainInfo = info;
    plainInfo.bindings = plainRig.bindings();
    plainInfo.pBuffers = nullptr;
    if ((vktest::properties(plain).flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0) {
        plainInfo.bindings = VK_NULL_HANDLE;
        plainInfo.pBuffers = &plainRig.buffers();
    }
    refused(plain, plainInfo, &segments, "VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT");
    VksortSegmentsInfo zero = segments;
    zero.segmentCount = 0;
    refused(sorter, info, &zero, "segmentCount 0 must be in [1, 2^31]");
    VksortSegmentsInfo offsets = segments;
    offsets.segmentSize = 0;
    offsets.offsetsBuffer = rig.keysBuffer();
    refused(sorter, info, &offsets, "need a sorter created with VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT");
    VksortSortInfo tooMany = info;
    tooMany.count = 65;
    refused(sorter, tooMany, &segments, "exceeds the bindings' maxCount");
    if (pushAvailable()) {
        VksortSorter pushSorter = segmentSorter(true);
        vktest::BindingsRig pushRig(ctx, pushSorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, 64);
        VksortSortInfo pushInfo{};
        pushInfo.pBuffers = &pushRig.buffers();
        pushInfo.count = 64;
        VksortSegmentsInfo bad = offsets;
        bad.offsetsBuffer = VK_NULL_HANDLE;
        refused(pushSorter, pushInfo, &bad, "offsetsBuffer must not be VK_NULL_HANDLE");
        bad.offsetsBuffer = pushRig.keysBuffer();
        bad.offsetsOffset = 2;
        refused(pushSorter, pushInfo, &bad, "must be a multiple of 4");
        bad.offsetsBuffer = pushRig.scratchBuffer();
        bad.offsetsOffset = pushRig.scratchRange().offset;
        refused(pushSorter, pushInfo, &bad, "inside the bindings' scratch range");
        VksortSegmentsInfo counted = offsets;
        counted.offsetsBuffer = pushRig.keysBuffer();
        counted.segmentCountBuffer = pushRig.keysBuffer();
        counted.segmentCountOffset = 6;
        refused(pushSorter, pushInfo, &counted, "segmentCountOffset 6 must be a multiple of 4");
        counted.segmentCountOffset = VK_WHOLE_SIZE - 3;
        refused(pushSorter, pushInfo, &counted, "wraps around");
        counted.segmentCountBuffer = pushRig.scratchBuffer();
        counted.segmentCountOffset = pushRig.scratchRange().offset + 4;
        refused(pushSorter, pushInfo, &counted, "the segment count lies inside the bindings' scratch range");
        VksortSegmentsInfo uniform = segments;
        uniform.segmentCountBuffer = pushRig.keysBuffer();
        refused(pushSorter, pushInfo, &uniform, "needs segments by offsets");
    }
    REQUIRE(vkEndCommandBuffer(cmd) == VK_SUCCESS);
    ctx.freeCommandBuffer(cmd);
}
