// SPDX-License-Identifier: MIT
// sort-test --segments: many independent arrays sorted two ways. The segmented sort: one
// vksortCmdSortSegments over the array of every segment's keys (SegmentedRig). The baseline, the
// way they are sorted without it: one vksortCmdSort per segment, all recorded into one command
// buffer (SegmentRig). For the baseline, each segment's keys, values and scratch are ranges of their own (sized by
// vksortGetMemoryRequirements for that segment's count, at the offsets its alignments ask) in
// three shared buffers, so the sorts share no memory and need no barrier between them. An empty
// segment gets no call: a sort of 0 keys records no dispatch (vksort.h), so the call would only
// cost recording time. The keys are those of one array of all the segments' keys (hostdata, the
// same --dist and --seed), as cub-bench --segments sorts them; the segment sizes come from the
// harness's layouts (harness/segments), so both tools sort the same segments.
//
// Every segment's result is compared with std::stable_sort of its own keys (values included, an
// argsort's indices counted from the segment's start), and the gaps that alignment leaves between
// the ranges, filled with canary bytes, must be unchanged: a sort that wrote outside its ranges
// would corrupt its neighbours.
#include "segment_sorts.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>

#include "guard.hpp"
#include "toolutil.hpp"
#include "vksort_describe.h" // VKSORT_DESCRIBE, the checkout built (cmake/VksortDescribe.cmake)

namespace {

using segmented::SegmentLayout;
using toolutil::alignUp;
using toolutil::Stats;
using toolutil::statsOf;

// At most this many sorts are recorded into one command buffer of timed or warm-up runs (whole
// runs, at least one): 20 runs of 2^18 tiny segments in one command buffer would hold millions of
// sorts' commands and pushed descriptors.
constexpr uint64_t kSortsPerSubmission = 1u << 16;

// Where each non-empty segment's ranges lie in the three shared buffers.
struct Plan {
    std::vector<uint32_t> segmentOf;               // the segment of each call
    std::vector<VksortBindingsCreateInfo> buffers; // each call's ranges (buffer handles set once created)
    VkDeviceSize keysBytes = 0, valuesBytes = 0, scratchBytes = 0;
    VkBufferUsageFlags keysUsage = 0, valuesUsage = 0, scratchUsage = 0;
};

Plan planOf(VksortSorter sorter, VksortKeyType key, VksortValueType value, const std::vector<uint32_t>& offsets) {
    Plan p;
    for (uint32_t s = 0; s + 1 < offsets.size(); ++s) {
        const uint32_t count = offsets[s + 1] - offsets[s];
        if (count == 0) continue;
        VksortMemoryRequirementsInfo info{nullptr, count, key, value};
        VksortMemoryRequirements r{};
        VKCTX_CHECK(vksortGetMemoryRequirements(sorter, &info, &r));
        VksortBindingsCreateInfo b{nullptr, count, key, value, {}, {}, {}};
        b.keys = {VK_NULL_HANDLE, alignUp(p.keysBytes, r.keys.alignment), r.keys.size};
        p.keysBytes = b.keys.offset + b.keys.size;
        p.keysUsage |= r.keys.usage;
        if (r.values.size != 0) {
            b.values = {VK_NULL_HANDLE, alignUp(p.valuesBytes, r.values.alignment), r.values.size};
            p.valuesBytes = b.values.offset + b.values.size;
            p.valuesUsage |= r.values.usage;
        }
        b.scratch = {VK_NULL_HANDLE, alignUp(p.scratchBytes, r.scratch.alignment), r.scratch.size};
        p.scratchBytes = b.scratch.offset + b.scratch.size;
        p.scratchUsage |= r.scratch.usage;
        p.segmentOf.push_back(s);
        p.buffers.push_back(b);
    }
    return p;
}

std::string formatName(VksortKeyType key, VksortValueType value) {
    return std::string(hostdata::toString(key)) + " keys with " + hostdata::toString(value) + " values";
}

double mib(VkDeviceSize bytes) { return double(bytes) / double(1u << 20); }

// The most bytes one allocation may hold (VkPhysicalDeviceMaintenance3Properties, Vulkan 1.1).
VkDeviceSize maxAllocation(const vkctx::Context& ctx) {
    VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &m3;
    vkGetPhysicalDeviceProperties2(ctx.physicalDevice(), &p2);
    return m3.maxMemoryAllocationSize;
}

// What each layout draws, and whether every format can sort it here. Ends the program with status
// 2, naming --segments, for a layout that cannot run; no sort has run yet.
std::vector<std::vector<uint32_t>> drawAndCheck(const vkctx::Context& ctx, VksortSorter sorter,
                                                const SegmentsOptions& o) {
    auto refuse = [](const SegmentLayout& l, const std::string& why) {
        std::fprintf(stderr, "sort-test: --segments %s: %s\n", l.text.c_str(), why.c_str());
        std::exit(2);
    };
    const VkDeviceSize allocation = maxAllocation(ctx);
    std::vector<std::vector<uint32_t>> offsets(o.layouts.size());
    for (size_t i = 0; i < o.layouts.size(); ++i) {
        const SegmentLayout& l = o.layouts[i];
        if (!segmented::segmentOffsets(l, o.seed, &offsets[i])) {
            refuse(l, "its segments (--seed " + std::to_string(o.seed) + ") hold more than 2^32 - 1 keys");
        }
        const segmented::Sizes sizes = segmented::sizesOf(offsets[i]);
        for (VksortKeyType key : o.keyTypes) {
            for (VksortValueType value : o.valueTypes) {
                const uint32_t capacity = vksortGetMaxCount(sorter, key, value);
                if (sizes.largest > capacity) {
                    refuse(l, "its largest segment, " + std::to_string(sizes.largest) +
                                  " keys, is above this device's capacity for " + formatName(key, value) +
                                  ": at most " + std::to_string(capacity) + " keys (vksortGetMaxCount)");
                }
                // The segmented sort's buffers, and the separate sorts' ranges packed into three.
                VksortMemoryRequirementsInfo whole{nullptr, std::max(sizes.keys, 1u), key, value};
                VksortMemoryRequirements r{};
                VKCTX_CHECK(vksortGetMemoryRequirements(sorter, &whole, &r));
                std::vector<std::pair<std::string, VkDeviceSize>> buffers = {
                    {"keys", r.keys.size}, {"values", r.values.size}, {"scratch", r.scratch.size}};
                if (o.separate) {
                    const Plan p = planOf(sorter, key, value, offsets[i]);
                    buffers.insert(buffers.end(), {{"separate sorts' keys", p.keysBytes},
                                                   {"separate sorts' values", p.valuesBytes},
                                                   {"separate sorts' scratch", p.scratchBytes}});
                }
                for (const auto& [name, bytes] : buffers) {
                    if (bytes <= allocation) continue;
                    char text[256];
                    std::snprintf(text, sizeof text,
                                  "its %s (%s) need a buffer of %.1f MiB, more than one allocation of this "
                                  "device holds (maxMemoryAllocationSize, %.1f MiB)%s",
                                  name.c_str(), formatName(key, value).c_str(), mib(bytes), mib(allocation),
                                  o.separate && name.rfind("separate", 0) == 0 ? "; --no-separate leaves them out" : "");
                    refuse(l, text);
                }
            }
        }
    }
    return offsets;
}

// One layout in one format on the device, sorted one way: what a run records and how its result
// is checked.
class Runner {
public:
    virtual ~Runner() = default;
    virtual const char* method() const = 0; // as the JSON and CSV name it
    virtual uint32_t calls() const = 0;     // vksort calls per run
    virtual VkDeviceSize scratchBytes() const = 0;
    // One run: restore the input (untimed), timestamp `query` of `pool` (when not null), the sort
    // calls, timestamp query + 1, and a barrier that orders the run before whatever follows.
    // Returns the CPU time, in microseconds, that the vksort calls took to record.
    virtual double record(VkCommandBuffer cmd, VkQueryPool pool, uint32_t query) const = 0;
    // Checks the result of the last run; "" when it holds, else what failed first.
    virtual std::string check(const SegmentsOptions& o) const = 0;
};

// The barrier after a run: every access the sorts make (vksort.h, SYNCHRONIZATION CONTRACT)
// before the next run's restore and sorts, and before downloads.
void afterRun(VkCommandBuffer cmd) {
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                             VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         0, 1, &after, 0, nullptr, 0, nullptr);
}

// The barrier between a run's restoring copies and its sorts.
void beforeRun(VkCommandBuffer cmd) {
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0,
                         nullptr, 0, nullptr);
}

// The baseline: every non-empty segment in ranges of its own, sorted by a vksortCmdSort of its own.
class SegmentRig : public Runner {
public:
    SegmentRig(vkctx::Context& ctx, VksortSorter sorter, VksortKeyType key, VksortValueType value,
               const std::vector<uint32_t>& offsets, const SegmentsOptions& o)
        : ctx_(ctx), sorter_(sorter), offsets_(offsets), plan_(planOf(sorter, key, value, offsets)) {
        kb_ = vksortKeySize(key);
        vb_ = vksortValueSize(value);
        copyValues_ = value == VKSORT_VALUE_TYPE_UINT32 || value == VKSORT_VALUE_TYPE_UINT64;
        input_ = hostdata::generate(key, value, offsets.back(), o.dist, o.seed);
        // (Buffers of at least 16 bytes: a layout of empty segments has no ranges at all.)
        keys_ = ctx.createBuffer(std::max<VkDeviceSize>(plan_.keysBytes, 16), plan_.keysUsage, false);
        pristineKeys_ = ctx.createBuffer(keys_.size, 0, false);
        scratch_ = ctx.createBuffer(std::max<VkDeviceSize>(plan_.scratchBytes, 16), plan_.scratchUsage, false);
        if (vb_ != 0) {
            values_ = ctx.createBuffer(std::max<VkDeviceSize>(plan_.valuesBytes, 16), plan_.valuesUsage, false);
            if (copyValues_) pristineValues_ = ctx.createBuffer(values_.size, 0, false);
        }
        // The input, each segment in its ranges, canary bytes in the gaps: every run restores the
        // keys and values buffers whole from these.
        std::vector<uint8_t> image(size_t(keys_.size), guard::kCanary);
        for (size_t c = 0; c < plan_.buffers.size(); ++c) {
            const VksortBindingsCreateInfo& b = plan_.buffers[c];
            std::memcpy(image.data() + b.keys.offset, input_.keys.data() + size_t(segmentStart(c)) * kb_,
                        size_t(b.maxCount) * kb_);
        }
        ctx.upload(pristineKeys_, 0, image.data(), image.size());
        if (copyValues_) {
            image.assign(size_t(values_.size), guard::kCanary);
            for (size_t c = 0; c < plan_.buffers.size(); ++c) {
                const VksortBindingsCreateInfo& b = plan_.buffers[c];
                std::memcpy(image.data() + b.values.offset, input_.values.data() + size_t(segmentStart(c)) * vb_,
                            size_t(b.maxCount) * vb_);
            }
            ctx.upload(pristineValues_, 0, image.data(), image.size());
        }
        // The scratch buffer (and an argsort's values, which no run restores) hold canary bytes
        // until the sorts write their ranges; the gaps keep them.
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            const uint32_t canary = 0x01010101u * guard::kCanary;
            vkCmdFillBuffer(cmd, scratch_.buffer, 0, VK_WHOLE_SIZE, canary);
            if (vb_ != 0 && !copyValues_) vkCmdFillBuffer(cmd, values_.buffer, 0, VK_WHOLE_SIZE, canary);
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                                 0, nullptr, 0, nullptr);
        });

        VksortSorterProperties properties{};
        vksortGetSorterProperties(sorter, &properties);
        const bool push = (properties.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
        for (VksortBindingsCreateInfo& b : plan_.buffers) {
            b.keys.buffer = keys_.buffer;
            if (vb_ != 0) b.values.buffer = values_.buffer;
            b.scratch.buffer = scratch_.buffer;
        }
        infos_.resize(plan_.buffers.size());
        for (size_t c = 0; c < plan_.buffers.size(); ++c) {
            VksortSortInfo& info = infos_[c];
            info = VksortSortInfo{};
            info.count = plan_.buffers[c].maxCount;
            info.order = o.order;
            info.beginBit = o.beginBit;
            info.endBit = o.endBit;
            // The buffers at record time where the sorter pushes its descriptors (the README's
            // way); otherwise the Vulkan 1.1 way, a bindings object per segment, made here, before
            // any recording is timed.
            if (push) {
                info.pBuffers = &plan_.buffers[c];
            } else {
                VKCTX_CHECK(vksortCreateBindings(sorter, &plan_.buffers[c], &info.bindings));
            }
        }
    }
    ~SegmentRig() {
        vkDeviceWaitIdle(ctx_.device());
        for (const VksortSortInfo& info : infos_) vksortDestroyBindings(sorter_, info.bindings);
        for (vkctx::Buffer* b : {&keys_, &values_, &scratch_, &pristineKeys_, &pristineValues_}) ctx_.destroyBuffer(*b);
    }
    SegmentRig(const SegmentRig&) = delete;
    SegmentRig& operator=(const SegmentRig&) = delete;

    const char* method() const override { return "separate_sorts"; }
    uint32_t calls() const override { return uint32_t(infos_.size()); }
    VkDeviceSize scratchBytes() const override { return plan_.scratchBytes; }

    double record(VkCommandBuffer cmd, VkQueryPool pool, uint32_t query) const override {
        VkBufferCopy keyCopy{0, 0, keys_.size};
        vkCmdCopyBuffer(cmd, pristineKeys_.buffer, keys_.buffer, 1, &keyCopy);
        if (copyValues_) {
            VkBufferCopy valueCopy{0, 0, values_.size};
            vkCmdCopyBuffer(cmd, pristineValues_.buffer, values_.buffer, 1, &valueCopy);
        }
        beforeRun(cmd);
        if (pool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query);
        const auto start = std::chrono::steady_clock::now();
        for (const VksortSortInfo& info : infos_) VKCTX_CHECK(vksortCmdSort(cmd, sorter_, &info, nullptr));
        const auto end = std::chrono::steady_clock::now();
        if (pool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query + 1);
        afterRun(cmd);
        return std::chrono::duration<double, std::micro>(end - start).count();
    }

    // Every segment against std::stable_sort, and the canary bytes between the ranges.
    std::string check(const SegmentsOptions& o) const override {
        std::vector<uint8_t> keys(size_t(keys_.size)), values(size_t(values_.size)), scratch(size_t(scratch_.size));
        ctx_.download(keys_, 0, keys.data(), keys.size());
        if (vb_ != 0) ctx_.download(values_, 0, values.data(), values.size());
        ctx_.download(scratch_, 0, scratch.data(), scratch.size());
        std::vector<guard::Range> keyRanges, valueRanges, scratchRanges;
        for (const VksortBindingsCreateInfo& b : plan_.buffers) {
            keyRanges.push_back({b.keys.offset, b.keys.size});
            if (vb_ != 0) valueRanges.push_back({b.values.offset, b.values.size});
            scratchRanges.push_back({b.scratch.offset, b.scratch.size});
        }
        const std::pair<const char*, guard::Damage> damage[] = {
            {"keys", guard::check(keys.data(), keys.size(), keyRanges)},
            {"values", guard::check(values.data(), values.size(), valueRanges)},
            {"scratch", guard::check(scratch.data(), scratch.size(), scratchRanges)}};
        for (const auto& [name, d] : damage) {
            if (d.count == 0) continue;
            return std::to_string(d.count) + " bytes of the " + name +
                   " buffer outside every segment's range changed (the first at byte " + std::to_string(d.first) +
                   ")";
        }
        // The segments' results, packed as the input is: where each sort left it (its keys and
        // values ranges, or with an odd pass count its scratch range).
        std::vector<uint8_t> outKeys(input_.keys.size()), outValues(size_t(input_.count) * vb_);
        for (size_t c = 0; c < infos_.size(); ++c) {
            VksortSortResult where{};
            VKCTX_CHECK(vksortGetSortResult(sorter_, &infos_[c], &where));
            auto from = [&](const VksortBufferRange& r) {
                const std::vector<uint8_t>& bytes =
                    r.buffer == keys_.buffer ? keys : r.buffer == values_.buffer ? values : scratch;
                return bytes.data() + r.offset;
            };
            const size_t start = segmentStart(c), count = infos_[c].count;
            std::memcpy(outKeys.data() + start * kb_, from(where.keys), count * kb_);
            if (vb_ != 0) std::memcpy(outValues.data() + start * vb_, from(where.values), count * vb_);
        }
        const hostdata::Verdict v =
            segmented::verify(input_, offsets_, o.order, o.beginBit, o.endBit, outKeys.data(),
                              vb_ != 0 ? outValues.data() : nullptr, segmented::IndexBase::Segment);
        return v.ok ? "" : v.detail;
    }

private:
    uint32_t segmentStart(size_t call) const { return offsets_[plan_.segmentOf[call]]; }

    vkctx::Context& ctx_;
    VksortSorter sorter_;
    const std::vector<uint32_t>& offsets_;
    Plan plan_;
    uint32_t kb_ = 0, vb_ = 0;
    bool copyValues_ = false;
    hostdata::Data input_;
    vkctx::Buffer keys_, values_, scratch_, pristineKeys_, pristineValues_;
    std::vector<VksortSortInfo> infos_;
};

// The segmented sort: the array of every segment's keys (and values) in one set of buffers, and
// one vksortCmdSortSegments over it: uniform segments for an NxS layout, the offsets otherwise.
class SegmentedRig : public Runner {
public:
    SegmentedRig(vkctx::Context& ctx, VksortSorter sorter, VksortKeyType key, VksortValueType value,
                 const SegmentLayout& layout, const std::vector<uint32_t>& offsets, const SegmentsOptions& o)
        : ctx_(ctx), sorter_(sorter), offsets_(offsets) {
        const uint32_t count = offsets.back();
        input_ = hostdata::generate(key, value, count, o.dist, o.seed);
        VksortMemoryRequirementsInfo info{nullptr, std::max(count, 1u), key, value};
        VksortMemoryRequirements r{};
        VKCTX_CHECK(vksortGetMemoryRequirements(sorter, &info, &r));
        const VkBufferUsageFlags copies = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        keys_ = ctx.createBuffer(r.keys.size, r.keys.usage | copies, false);
        pristineKeys_ = ctx.createBuffer(r.keys.size, copies, false);
        if (!input_.keys.empty()) ctx.upload(pristineKeys_, 0, input_.keys.data(), input_.keys.size());
        if (r.values.size != 0) {
            values_ = ctx.createBuffer(r.values.size, r.values.usage | copies, false);
            if (!input_.values.empty()) {
                pristineValues_ = ctx.createBuffer(r.values.size, copies, false);
                ctx.upload(pristineValues_, 0, input_.values.data(), input_.values.size());
            }
        }
        scratch_ = ctx.createBuffer(r.scratch.size, r.scratch.usage | copies, false);
        buffers_ = VksortBindingsCreateInfo{nullptr, std::max(count, 1u), key, value,
                                            {keys_.buffer, 0, r.keys.size}, {}, {scratch_.buffer, 0, r.scratch.size}};
        if (r.values.size != 0) buffers_.values = {values_.buffer, 0, r.values.size};

        VksortSorterProperties properties{};
        vksortGetSorterProperties(sorter, &properties);
        const bool push = (properties.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
        segments_.segmentCount = uint32_t(offsets.size() - 1);
        if (layout.kind == SegmentLayout::Fixed && layout.low != 0 && !o.segmentCountOnGpu) {
            segments_.segmentSize = layout.low;
        } else if (push) {
            // The offsets, then (--indirect) the segment count, in one buffer.
            std::vector<uint32_t> words = offsets;
            words.push_back(segments_.segmentCount);
            offsetsBuffer_ = ctx.createBuffer(words.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | copies, false);
            ctx.upload(offsetsBuffer_, 0, words.data(), words.size() * 4);
            segments_.offsetsBuffer = offsetsBuffer_.buffer;
            if (o.segmentCountOnGpu) {
                segments_.segmentCountBuffer = offsetsBuffer_.buffer;
                segments_.segmentCountOffset = offsets.size() * 4;
            }
        } else {
            unsupported_ = o.segmentCountOnGpu ? "its offsets and segment count need a sorter that pushes its descriptors"
                                               : "its offsets need a sorter that pushes its descriptors";
        }
        info_.order = o.order;
        info_.beginBit = o.beginBit;
        info_.endBit = o.endBit;
        info_.count = count;
        if (push) {
            info_.pBuffers = &buffers_;
        } else {
            VKCTX_CHECK(vksortCreateBindings(sorter, &buffers_, &bindings_));
            info_.bindings = bindings_;
        }
        scratchBytes_ = r.scratch.size;
    }
    ~SegmentedRig() override {
        vkDeviceWaitIdle(ctx_.device());
        vksortDestroyBindings(sorter_, bindings_);
        for (vkctx::Buffer* b : {&keys_, &values_, &scratch_, &pristineKeys_, &pristineValues_, &offsetsBuffer_}) {
            if (b->buffer != VK_NULL_HANDLE) ctx_.destroyBuffer(*b);
        }
    }
    SegmentedRig(const SegmentedRig&) = delete;
    SegmentedRig& operator=(const SegmentedRig&) = delete;

    // Why this layout cannot be sorted this way here ("" when it can).
    const std::string& unsupported() const { return unsupported_; }
    const char* method() const override { return "segmented_sort"; }
    uint32_t calls() const override { return 1; }
    VkDeviceSize scratchBytes() const override { return scratchBytes_; }

    double record(VkCommandBuffer cmd, VkQueryPool pool, uint32_t query) const override {
        if (!input_.keys.empty()) {
            VkBufferCopy keyCopy{0, 0, input_.keys.size()};
            vkCmdCopyBuffer(cmd, pristineKeys_.buffer, keys_.buffer, 1, &keyCopy);
        }
        if (!input_.values.empty()) {
            VkBufferCopy valueCopy{0, 0, input_.values.size()};
            vkCmdCopyBuffer(cmd, pristineValues_.buffer, values_.buffer, 1, &valueCopy);
        }
        beforeRun(cmd);
        if (pool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query);
        const auto start = std::chrono::steady_clock::now();
        VKCTX_CHECK(vksortCmdSortSegments(cmd, sorter_, &info_, &segments_, nullptr));
        const auto end = std::chrono::steady_clock::now();
        if (pool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query + 1);
        afterRun(cmd);
        return std::chrono::duration<double, std::micro>(end - start).count();
    }

    // Every segment against std::stable_sort (an argsort's indices count from the array's start).
    std::string check(const SegmentsOptions& o) const override {
        VksortSortResult where{};
        VKCTX_CHECK(vksortGetSortResult(sorter_, &info_, &where));
        const size_t kb = vksortKeySize(input_.keyType), vb = vksortValueSize(input_.valueType);
        std::vector<uint8_t> outKeys(size_t(input_.count) * kb), outValues(size_t(input_.count) * vb);
        auto download = [&](const VksortBufferRange& r, std::vector<uint8_t>& out) {
            if (out.empty()) return;
            const vkctx::Buffer& b = r.buffer == keys_.buffer ? keys_ : r.buffer == values_.buffer ? values_ : scratch_;
            ctx_.download(b, r.offset, out.data(), out.size());
        };
        download(where.keys, outKeys);
        if (vb != 0) download(where.values, outValues);
        const hostdata::Verdict v =
            segmented::verify(input_, offsets_, o.order, o.beginBit, o.endBit, outKeys.data(),
                              vb != 0 ? outValues.data() : nullptr, segmented::IndexBase::Array);
        return v.ok ? "" : v.detail;
    }

private:
    vkctx::Context& ctx_;
    VksortSorter sorter_;
    const std::vector<uint32_t>& offsets_;
    hostdata::Data input_;
    vkctx::Buffer keys_, values_, scratch_, pristineKeys_, pristineValues_, offsetsBuffer_;
    VksortBindingsCreateInfo buffers_{};
    VksortBindings bindings_ = VK_NULL_HANDLE;
    VksortSortInfo info_{};
    VksortSegmentsInfo segments_{};
    VkDeviceSize scratchBytes_ = 0;
    std::string unsupported_;
};

// What one layout in one format measured.
struct Row {
    VksortKeyType key{};
    VksortValueType value{};
    std::string layout;
    std::string method; // Runner::method()
    segmented::Sizes sizes;
    uint32_t calls = 0;
    Stats ms;             // GPU time of all the sorts of one run
    Stats recordUs;       // CPU time of all the vksortCmdSort calls of one run
    VkDeviceSize scratchBytes = 0;
    std::string verified; // "yes", "no" or "skipped"
    std::string failure;
};

double keysPerSecond(const Row& r) { return r.ms.median > 0 ? double(r.sizes.keys) / (r.ms.median * 1e-3) : 0; }
double usPerCall(const Row& r) { return r.calls != 0 ? r.recordUs.median / r.calls : 0; }

// The checked run (every run in the default mode; with --bench the one before the timing, up to
// --verify-max keys): one submission, timed like the others.
void verifyRun(vkctx::Context& ctx, const Runner& rig, const SegmentsOptions& o, Row* row) {
    VkQueryPool pool = ctx.createTimestampPool(2);
    double recordUs = 0;
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, pool, 0, 2);
        recordUs = rig.record(cmd, pool, 0);
    });
    const double ms = ctx.timestampSpansMs(pool, 1)[0];
    vkDestroyQueryPool(ctx.device(), pool, nullptr);
    if (!o.bench) {
        row->ms = statsOf({ms});
        row->recordUs = statsOf({recordUs});
    }
    row->failure = rig.check(o);
    row->verified = row->failure.empty() ? "yes" : "no";
}

// --bench: runs back to back for at least --warmup seconds, then --reps timed runs, as many to a
// command buffer as kSortsPerSubmission allows.
void benchRuns(vkctx::Context& ctx, const Runner& rig, const SegmentsOptions& o, Row* row) {
    const uint32_t perSubmission =
        uint32_t(std::clamp<uint64_t>(kSortsPerSubmission / std::max(rig.calls(), 1u), 1, o.reps));
    if (o.warmup > 0) {
        VkCommandBuffer warm = ctx.allocateCommandBuffer();
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        VKCTX_CHECK(vkBeginCommandBuffer(warm, &begin));
        for (uint32_t r = 0; r < perSubmission; ++r) rig.record(warm, VK_NULL_HANDLE, 0);
        VKCTX_CHECK(vkEndCommandBuffer(warm));
        const auto start = std::chrono::steady_clock::now();
        do {
            ctx.submitAndWait(warm);
        } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < o.warmup);
        ctx.freeCommandBuffer(warm);
    }
    VkQueryPool pool = ctx.createTimestampPool(2 * o.reps);
    std::vector<double> recordUs;
    for (uint32_t first = 0; first < o.reps; first += perSubmission) {
        const uint32_t runs = std::min(perSubmission, o.reps - first);
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, pool, 2 * first, 2 * runs);
            for (uint32_t r = first; r < first + runs; ++r) recordUs.push_back(rig.record(cmd, pool, 2 * r));
        });
    }
    row->ms = statsOf(ctx.timestampSpansMs(pool, o.reps));
    row->recordUs = statsOf(recordUs);
    vkDestroyQueryPool(ctx.device(), pool, nullptr);
}

const char* orderName(VksortOrder order) { return order == VKSORT_ORDER_ASCENDING ? "asc" : "desc"; }

void writeJson(FILE* f, const vkctx::Context& ctx, const VksortSorterProperties& sorter, const std::vector<Row>& rows,
               const SegmentsOptions& o) {
    using toolutil::jsonEscape;
    std::fprintf(f, "{\n  \"vksort_commit\": \"%s\",\n  \"device\": \"%s\",\n  \"driver\": \"%s\",\n"
                 "  \"order\": \"%s\",\n  \"distribution\": \"%s\",\n  \"begin_bit\": %u,\n  \"end_bit\": %u,\n",
                 VKSORT_DESCRIBE, jsonEscape(ctx.properties().deviceName).c_str(),
                 jsonEscape(ctx.driverDescription()).c_str(), orderName(o.order),
                 jsonEscape(hostdata::toString(o.dist)).c_str(), o.beginBit, o.endBit);
    std::fprintf(f, "  \"workgroup_size\": %u,\n  \"keys_per_thread\": %u,\n  \"tile_size\": %u,\n"
                 "  \"single_dispatch_max_count\": %u,\n  \"subgroup_size\": %u,\n",
                 sorter.workgroupSize, sorter.keysPerThread, sorter.tileSize, sorter.singleDispatchMaxCount,
                 sorter.subgroupSize);
    std::fprintf(f, "  \"sorter_create_ms\": %.3f,\n  \"sorter_all_formats\": %s,\n  \"subgroup_size_control\": %s,\n"
                 "  \"skip_constant_digits\": %s,\n  \"push_descriptors\": %s,\n  \"segment_count_on_gpu\": %s,\n",
                 o.createMs, o.allFormats ? "true" : "false", ctx.subgroupSizeControlEnabled() ? "true" : "false",
                 o.skipConstantDigits ? "true" : "false", ctx.pushDescriptorsEnabled() ? "true" : "false",
                 o.segmentCountOnGpu ? "true" : "false");
    std::fprintf(f, "  \"reps\": %u,\n  \"warmup_s\": %.3f,\n  \"seed\": %llu,\n  \"mode\": \"segments\",\n",
                 o.reps, o.warmup, static_cast<unsigned long long>(o.seed));
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::fprintf(f,
                     "    {\"key\": \"%s\", \"value\": \"%s\", \"dist\": \"%s\", \"segments_layout\": \"%s\", "
                     "\"segments\": %u, \"empty_segments\": %u, \"largest_segment\": %u, \"count\": %u, "
                     "\"calls\": %u, \"method\": \"%s\", \"median_ms\": %.6f, \"min_ms\": %.6f, "
                     "\"max_ms\": %.6f, \"keys_per_s\": %.6e, \"record_us\": %.3f, \"record_us_per_call\": %.4f, "
                     "\"scratch_bytes\": %llu, \"verified\": \"%s\"}%s\n",
                     hostdata::toString(r.key), hostdata::toString(r.value),
                     jsonEscape(hostdata::toString(o.dist)).c_str(), jsonEscape(r.layout).c_str(), r.sizes.segments,
                     r.sizes.empty, r.sizes.largest, r.sizes.keys, r.calls, r.method.c_str(), r.ms.median, r.ms.min,
                     r.ms.max, keysPerSecond(r), r.recordUs.median, usPerCall(r), static_cast<unsigned long long>(r.scratchBytes),
                     r.verified.c_str(), i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
}

// Every row names the build and the tile as well, as the sweep's CSV does.
void writeCsv(FILE* f, const VksortSorterProperties& sorter, const std::vector<Row>& rows, const SegmentsOptions& o) {
    std::fprintf(f, "key,value,dist,segments_layout,segments,empty_segments,largest_segment,count,calls,method,"
                    "median_ms,min_ms,max_ms,keys_per_s,record_us,record_us_per_call,scratch_bytes,verified,"
                    "vksort_commit,workgroup_size,keys_per_thread,tile_size\n");
    for (const Row& r : rows) {
        std::fprintf(f, "%s,%s,%s,%s,%u,%u,%u,%u,%u,%s,%.6f,%.6f,%.6f,%.6e,%.3f,%.4f,%llu,%s,%s,%u,%u,%u\n",
                     hostdata::toString(r.key), hostdata::toString(r.value), hostdata::toString(o.dist).c_str(),
                     r.layout.c_str(), r.sizes.segments, r.sizes.empty, r.sizes.largest, r.sizes.keys, r.calls,
                     r.method.c_str(), r.ms.median, r.ms.min, r.ms.max, keysPerSecond(r), r.recordUs.median, usPerCall(r),
                     static_cast<unsigned long long>(r.scratchBytes), r.verified.c_str(), VKSORT_DESCRIBE,
                     sorter.workgroupSize, sorter.keysPerThread, sorter.tileSize);
    }
}

void writeTo(FILE* f, const std::function<void(FILE*)>& write) {
    if (f == nullptr) return;
    write(f);
    if (f != stdout) std::fclose(f);
}

} // namespace

int runSegments(vkctx::Context& ctx, VksortSorter sorter, const SegmentsOptions& o) {
    const std::vector<std::vector<uint32_t>> offsets = drawAndCheck(ctx, sorter, o);
    VksortSorterProperties properties{};
    vksortGetSorterProperties(sorter, &properties);
    const bool push = (properties.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
    const char* how = push ? "buffers at record time (pBuffers)" : "bindings objects (no push descriptors)";
    const char* countNote = o.segmentCountOnGpu ? " (offsets, the segment count read on the GPU)" : "";
    if (o.bench) {
        std::printf("sort-test --segments --bench: vksort %s | %s | %s | %s order, %s keys, bits %s, %u timed runs per "
                    "layout after %.1f s warm-up | tile %u (%u x %u), one dispatch up to %u, compare sort up to %u, "
                    "merge sort up to %u (64-bit keys %u), subgroup %u | %s | "
                    "segmented: one vksortCmdSortSegments%s; separate: a vksortCmdSort per non-empty segment | %s\n",
                    VKSORT_DESCRIBE, ctx.properties().deviceName, ctx.driverDescription().c_str(), orderName(o.order),
                    hostdata::toString(o.dist).c_str(), o.bitsText.c_str(), o.reps, o.warmup, properties.tileSize,
                    properties.workgroupSize, properties.keysPerThread, properties.singleDispatchMaxCount,
                    properties.compareSortMaxCount, properties.mergeSortMaxCount, properties.mergeSortMaxCount64, properties.subgroupSize,
                    o.sorterNote.c_str(),
                    countNote, how);
        std::printf("%-4s %-5s %-18s %-9s %9s %7s %11s %9s %9s %9s %9s %8s %10s %8s %4s\n", "key", "value", "layout",
                    "method", "segments", "empty", "keys", "calls", "median", "min", "max", "keys/s", "record ms",
                    "us/call", "ok");
    } else {
        std::printf("sort-test --segments: %s | %s | %s order, %s keys, bits %s | %s | segmented: one "
                    "vksortCmdSortSegments%s; separate: a vksortCmdSort per non-empty segment in one command buffer | "
                    "%s\n",
                    ctx.properties().deviceName, ctx.driverDescription().c_str(), orderName(o.order),
                    hostdata::toString(o.dist).c_str(), o.bitsText.c_str(), o.sorterNote.c_str(), countNote, how);
    }
    std::fflush(stdout);

    std::vector<Row> rows;
    std::string failure;
    auto run = [&](const Runner& rig, Row row) {
        row.method = rig.method();
        row.calls = rig.calls();
        row.scratchBytes = rig.scratchBytes();
        if (!o.bench || row.sizes.keys <= o.verifyMax) {
            verifyRun(ctx, rig, o, &row);
        } else {
            row.verified = "skipped";
        }
        if (o.bench) benchRuns(ctx, rig, o, &row);
        if (!row.failure.empty() && failure.empty()) {
            failure = row.layout + " (" + formatName(row.key, row.value) + ", " + row.method + "): " + row.failure;
        }
        const char* shortName = rig.calls() == 1 && row.method == "segmented_sort" ? "segmented" : "separate";
        if (o.bench) {
            std::printf("%-4s %-5s %-18s %-9s %9u %7u %11u %9u %9.4f %9.4f %9.4f %8s %10.4f %8.3f %4s\n",
                        hostdata::toString(row.key), hostdata::toString(row.value), row.layout.c_str(), shortName,
                        row.sizes.segments, row.sizes.empty, row.sizes.keys, row.calls, row.ms.median, row.ms.min,
                        row.ms.max, toolutil::siRate(keysPerSecond(row), "").c_str(), row.recordUs.median * 1e-3,
                        usPerCall(row), row.verified.c_str());
        } else {
            // One run, submitted alone after an upload: a GPU runs it at idle clocks, so the line
            // says what the figure is.
            std::printf("sort-test --segments %s %s: %s keys, %s values | %u segments (%u empty, largest %u), %u keys, "
                        "%u calls | GPU %.3f ms (one run from idle, no warm-up: --bench for speed), recorded in %.3f "
                        "ms | %s\n",
                        row.layout.c_str(), shortName, hostdata::toString(row.key), hostdata::toString(row.value),
                        row.sizes.segments, row.sizes.empty, row.sizes.largest, row.sizes.keys, row.calls,
                        row.ms.median, row.recordUs.median * 1e-3, row.failure.empty() ? "verified" : "FAILED");
        }
        std::fflush(stdout);
        rows.push_back(row);
    };
    for (VksortKeyType key : o.keyTypes) {
        for (VksortValueType value : o.valueTypes) {
            for (size_t i = 0; i < o.layouts.size(); ++i) {
                Row row;
                row.key = key;
                row.value = value;
                row.layout = o.layouts[i].text;
                row.sizes = segmented::sizesOf(offsets[i]);
                {
                    SegmentedRig rig(ctx, sorter, key, value, o.layouts[i], offsets[i], o);
                    if (rig.unsupported().empty()) {
                        run(rig, row);
                    } else {
                        std::printf("sort-test --segments %s segmented: not run: %s (--no-push-descriptors)\n",
                                    row.layout.c_str(), rig.unsupported().c_str());
                    }
                }
                if (!o.separate) continue;
                SegmentRig rig(ctx, sorter, key, value, offsets[i], o);
                run(rig, row);
            }
        }
    }
    if (rows.empty()) {
        std::fprintf(stderr, "sort-test: --segments: no sort ran: every layout%s needs a sorter that pushes its "
                             "descriptors (not --no-push-descriptors, and a device with VK_KHR_push_descriptor)\n",
                     o.segmentCountOnGpu ? " with --indirect" : "");
        return 2;
    }
    writeTo(o.jsonFile, [&](FILE* f) { writeJson(f, ctx, properties, rows, o); });
    writeTo(o.csvFile, [&](FILE* f) { writeCsv(f, properties, rows, o); });
    const size_t validation = ctx.validationMessageCount();
    if (validation != 0) std::printf("sort-test --segments: %zu validation messages\n", validation);
    if (!failure.empty()) std::printf("sort-test --segments: FAILED: %s\n", failure.c_str());
    return failure.empty() && validation == 0 ? 0 : 1;
}
