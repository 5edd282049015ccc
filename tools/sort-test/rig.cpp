// SPDX-License-Identifier: MIT
#include "rig.hpp"

#include <algorithm>
#include <chrono>

#include "harness_spirv.hpp" // copy.comp

SortRig::SortRig(vkctx::Context& ctx, VksortSorter sorter, VksortKeyType keyType, VksortValueType valueType,
                 uint32_t capacity, bool indirect, uint32_t rangeOffset)
    : ctx_(ctx), sorter_(sorter), keyType_(keyType), valueType_(valueType), indirect_(indirect) {
    if (indirect) count_ = std::make_unique<vkctx::GpuCount>(ctx);
    VksortMemoryRequirementsInfo info{nullptr, capacity, keyType, valueType};
    VksortMemoryRequirements r{};
    VKCTX_CHECK(vksortGetMemoryRequirements(sorter, &info, &r));
    auto offsetFor = [&](const VksortBufferRequirements& need) {
        return need.size == 0 ? 0 : toolutil::alignUp(rangeOffset, need.alignment);
    };
    const VkDeviceSize keysAt = offsetFor(r.keys), valuesAt = offsetFor(r.values), scratchAt = offsetFor(r.scratch);
    keys_ = ctx.createBuffer(keysAt + r.keys.size, r.keys.usage, false);
    scratch_ = ctx.createBuffer(scratchAt + r.scratch.size, r.scratch.usage, false);
    pristineKeys_ = ctx.createBuffer(r.keys.size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false); // also the copy source
    if (r.values.size != 0) values_ = ctx.createBuffer(valuesAt + r.values.size, r.values.usage, false);
    copyValues_ = valueType == VKSORT_VALUE_TYPE_UINT32 || valueType == VKSORT_VALUE_TYPE_UINT64;
    if (copyValues_) pristineValues_ = ctx.createBuffer(r.values.size, 0, false);

    VksortBindingsCreateInfo b{};
    b.maxCount = capacity;
    b.keyType = keyType;
    b.valueType = valueType;
    b.keys = {keys_.buffer, keysAt, r.keys.size};
    if (r.values.size != 0) b.values = {values_.buffer, valuesAt, r.values.size};
    b.scratch = {scratch_.buffer, scratchAt, r.scratch.size};
    buffers_ = b;
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    if ((p.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) == 0) VKCTX_CHECK(vksortCreateBindings(sorter, &b, &bindings_));
}

SortRig::~SortRig() {
    vkDeviceWaitIdle(ctx_.device());
    vksortDestroyBindings(sorter_, bindings_);
    count_.reset();
    for (vkctx::Buffer* b : {&keys_, &values_, &scratch_, &pristineKeys_, &pristineValues_}) {
        ctx_.destroyBuffer(*b);
    }
}

void SortRig::load(const hostdata::Data& input) {
    ctx_.upload(pristineKeys_, 0, input.keys.data(), input.keys.size());
    if (copyValues_) ctx_.upload(pristineValues_, 0, input.values.data(), input.values.size());
}

VksortSortInfo SortRig::sortInfo(uint32_t count) const {
    VksortSortInfo info{};
    info.bindings = bindings_;
    info.pBuffers = bindings_ == VK_NULL_HANDLE ? &buffers_ : nullptr;
    info.count = count;
    return info;
}

// Restore the input (untimed: before vksort's first timestamp), sort, and order everything
// after the sort before the next iteration's restore.
void SortRig::recordIteration(VkCommandBuffer cmd, const VksortSortInfo& base, VkQueryPool pool, uint32_t firstQuery,
                              VkQueryPool outerPool, uint32_t outerQuery) {
    uint32_t kb = vksortKeySize(keyType_), vb = vksortValueSize(valueType_);
    if (base.count > 0) {
        VkBufferCopy keyCopy{0, buffers_.keys.offset, VkDeviceSize(base.count) * kb};
        vkCmdCopyBuffer(cmd, pristineKeys_.buffer, keys_.buffer, 1, &keyCopy);
        if (copyValues_) {
            VkBufferCopy valueCopy{0, buffers_.values.offset, VkDeviceSize(base.count) * vb};
            vkCmdCopyBuffer(cmd, pristineValues_.buffer, values_.buffer, 1, &valueCopy);
        }
    }
    if (indirect_) count_->record(cmd);
    // (vksort reads the count in its shaders, or copies it: transfer.)
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                           VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0,
                         nullptr, 0, nullptr);
    VksortSortInfo info = base;
    info.timestampQueryPool = pool;
    info.firstTimestampQuery = firstQuery;
    if (outerPool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, outerPool, outerQuery);
    const auto start = std::chrono::steady_clock::now();
    if (indirect_) {
        VKCTX_CHECK(vksortCmdSortIndirect(cmd, sorter_, &info, count_->buffer(), 0, nullptr));
    } else {
        VKCTX_CHECK(vksortCmdSort(cmd, sorter_, &info, nullptr));
    }
    lastRecordUs_ = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (outerPool != VK_NULL_HANDLE) {
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, outerPool, outerQuery + 1);
    }
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    // (The indirect sort's own transfer read of the count is ordered by the source stages too.)
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &after, 0, nullptr, 0, nullptr);
}

namespace {

uint32_t passCountOf(VksortSorter sorter, const VksortSortInfo& info) {
    VksortSortResult r{};
    VKCTX_CHECK(vksortGetSortResult(sorter, &info, &r));
    return r.passCount;
}

std::vector<RunTimes> readTimes(vkctx::Context& ctx, VkQueryPool pool, uint32_t runs, uint32_t perRun) {
    std::vector<uint64_t> stamps(size_t(runs) * perRun);
    VKCTX_CHECK(vkGetQueryPoolResults(ctx.device(), pool, 0, uint32_t(stamps.size()), stamps.size() * sizeof(uint64_t),
                                      stamps.data(), sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    uint64_t mask = ctx.timestampValidBits() >= 64 ? ~uint64_t(0) : (uint64_t(1) << ctx.timestampValidBits()) - 1;
    double tickMs = ctx.properties().limits.timestampPeriod * 1e-6;
    std::vector<RunTimes> out(runs);
    for (uint32_t r = 0; r < runs; ++r) {
        const uint64_t* s = stamps.data() + size_t(r) * perRun;
        out[r].total = double((s[perRun - 1] - s[0]) & mask) * tickMs;
        for (uint32_t q = 1; q < perRun; ++q) out[r].kinds[q == 1 ? 0 : 1] += double((s[q] - s[q - 1]) & mask) * tickMs;
    }
    return out;
}

} // namespace

uint32_t SortRig::tileSize() const {
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter_, &p);
    return p.tileSize;
}

RunTimes SortRig::sortOnce(const VksortSortInfo& info, std::vector<uint8_t>* keys, std::vector<uint8_t>* values) {
    if (count_) count_->set(info.count);
    uint32_t perRun = vksortTimestampQueryCount(passCountOf(sorter_, info));
    VkQueryPool pool = ctx_.createTimestampPool(perRun);
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, pool, 0, perRun);
        recordIteration(cmd, info, pool, 0, VK_NULL_HANDLE, 0);
    });
    RunTimes times{};
    if (info.count > 0) times = readTimes(ctx_, pool, 1, perRun)[0];
    vkDestroyQueryPool(ctx_.device(), pool, nullptr);

    VksortSortResult where{};
    VKCTX_CHECK(vksortGetSortResult(sorter_, &info, &where));
    uint32_t kb = vksortKeySize(keyType_), vb = vksortValueSize(valueType_);
    keys->resize(size_t(info.count) * kb);
    ctx_.download(where.inScratch ? scratch_ : keys_, where.keys.offset, keys->data(), keys->size());
    values->resize(size_t(info.count) * vb);
    if (vb != 0) ctx_.download(where.inScratch ? scratch_ : values_, where.values.offset, values->data(), values->size());
    return times;
}

std::vector<RunTimes> SortRig::bench(const VksortSortInfo& info, double warmupSeconds, uint32_t repetitions) {
    if (info.count == 0 || repetitions == 0) return {};
    if (count_) count_->set(info.count);
    uint32_t perRun = vksortTimestampQueryCount(passCountOf(sorter_, info));
    VkQueryPool pool = ctx_.createTimestampPool(perRun * repetitions);

    // Warm-up: one command buffer of back-to-back sorts, resubmitted until the time is spent.
    if (warmupSeconds > 0) {
        VkCommandBuffer warm = ctx_.allocateCommandBuffer();
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        VKCTX_CHECK(vkBeginCommandBuffer(warm, &begin));
        VksortSortInfo untimed = info;
        for (uint32_t i = 0; i < 16; ++i) recordIteration(warm, untimed, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, 0);
        VKCTX_CHECK(vkEndCommandBuffer(warm));
        auto start = std::chrono::steady_clock::now();
        do {
            ctx_.submitAndWait(warm);
        } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < warmupSeconds);
        ctx_.freeCommandBuffer(warm);
    }

    // Two rounds: one with vksort's per-dispatch timestamps (the split by pass kind), one with a
    // timestamp only before and after each sort (the total, free of the per-dispatch queries).
    VkQueryPool outer = ctx_.createTimestampPool(2 * repetitions);
    std::vector<double> recordUs(repetitions);
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, pool, 0, perRun * repetitions);
        for (uint32_t r = 0; r < repetitions; ++r) recordIteration(cmd, info, pool, r * perRun, VK_NULL_HANDLE, 0);
    });
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, outer, 0, 2 * repetitions);
        for (uint32_t r = 0; r < repetitions; ++r) {
            recordIteration(cmd, info, VK_NULL_HANDLE, 0, outer, 2 * r);
            recordUs[r] = lastRecordUs_;
        }
    });
    std::vector<RunTimes> times = readTimes(ctx_, pool, repetitions, perRun);
    std::vector<RunTimes> totals = readTimes(ctx_, outer, repetitions, 2);
    for (uint32_t r = 0; r < repetitions; ++r) {
        times[r].withQueries = times[r].total;
        times[r].total = totals[r].total;
        times[r].recordUs = recordUs[r];
    }
    vkDestroyQueryPool(ctx_.device(), pool, nullptr);
    vkDestroyQueryPool(ctx_.device(), outer, nullptr);
    return times;
}

double SortRig::copyBandwidth(uint64_t bytes, uint32_t repetitions) {
    bytes = std::min<uint64_t>(bytes, pristineKeys_.size);
    if (bytes == 0 || repetitions == 0) return 0;
    VkQueryPool pool = ctx_.createTimestampPool(2 * repetitions);
    auto record = [&](VkCommandBuffer cmd, bool timed) {
        if (timed) vkCmdResetQueryPool(cmd, pool, 0, 2 * repetitions);
        for (uint32_t r = 0; r < repetitions; ++r) {
            // BOTTOM_OF_PIPE on both ends: the start is written once everything before it is done.
            if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * r);
            VkBufferCopy region{0, 0, bytes};
            vkCmdCopyBuffer(cmd, pristineKeys_.buffer, keys_.buffer, 1, &region);
            if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * r + 1);
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0,
                                 nullptr, 0, nullptr);
        }
    };
    ctx_.submitAndWait([&](VkCommandBuffer cmd) { record(cmd, false); }); // warm
    ctx_.submitAndWait([&](VkCommandBuffer cmd) { record(cmd, true); });
    std::vector<uint64_t> stamps(2 * repetitions);
    VKCTX_CHECK(vkGetQueryPoolResults(ctx_.device(), pool, 0, 2 * repetitions, stamps.size() * sizeof(uint64_t),
                                      stamps.data(), sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    vkDestroyQueryPool(ctx_.device(), pool, nullptr);
    double tickS = ctx_.properties().limits.timestampPeriod * 1e-9;
    std::vector<double> rates;
    for (uint32_t r = 0; r < repetitions; ++r) {
        double seconds = double(stamps[2 * r + 1] - stamps[2 * r]) * tickS;
        if (seconds > 0) rates.push_back(2.0 * double(bytes) / seconds);
    }
    return statsOf(rates).median;
}

double SortRig::shaderCopyBandwidth(uint64_t bytes, uint32_t repetitions) {
    bytes = std::min<uint64_t>(bytes, pristineKeys_.size) / 16 * 16;
    if (bytes == 0 || repetitions == 0) return 0;
    vkctx::ComputeKernel copy(ctx_, harnessspirv::kSpirvBlobs[0].words, harnessspirv::kSpirvBlobs[0].wordCount,
                              {pristineKeys_.buffer, keys_.buffer}, 4);
    uint32_t vectors = uint32_t(bytes / 16);
    uint32_t groups = std::min<uint32_t>((vectors + 1023) / 1024, 65535);
    VkQueryPool queries = ctx_.createTimestampPool(2 * repetitions);
    auto record = [&](VkCommandBuffer cmd, bool timed) {
        if (timed) vkCmdResetQueryPool(cmd, queries, 0, 2 * repetitions);
        for (uint32_t r = 0; r < repetitions; ++r) {
            if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2 * r);
            copy.record(cmd, &vectors, groups);
            if (timed) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2 * r + 1);
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
        }
    };
    ctx_.submitAndWait([&](VkCommandBuffer cmd) { record(cmd, false); }); // warm
    ctx_.submitAndWait([&](VkCommandBuffer cmd) { record(cmd, true); });
    std::vector<RunTimes> times = readTimes(ctx_, queries, repetitions, 2);
    vkDestroyQueryPool(ctx_.device(), queries, nullptr);
    std::vector<double> rates;
    for (const RunTimes& t : times) {
        if (t.total > 0) rates.push_back(2.0 * double(bytes) / (t.total * 1e-3));
    }
    return statsOf(rates).median;
}
