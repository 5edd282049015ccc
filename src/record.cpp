#include "record.hpp"

#include <string>

#include "diagnostics.hpp"

namespace vksort {

bool useInlineScan(uint32_t numTiles) { return numTiles <= kInlineScanMaxTiles; }

uint32_t orderFlags(VksortKeyType keyType, VksortOrder order) {
    uint32_t flags = 0;
    switch (keyType) {
    case VKSORT_KEY_TYPE_INT32:
    case VKSORT_KEY_TYPE_INT64: flags = kFlagKeySigned; break;
    case VKSORT_KEY_TYPE_FLOAT32:
    case VKSORT_KEY_TYPE_FLOAT64: flags = kFlagKeyFloat; break;
    default: flags = kFlagKeyUnsigned; break;
    }
    if (order == VKSORT_ORDER_DESCENDING) flags |= kFlagDescending;
    return flags;
}

void bindPass(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
              const PassParams& pass) {
    VksortPushConstants constants{};
    constants.count = pass.count;
    constants.numTiles = ceilDiv(pass.count, sorter.tile.tileSize());
    constants.rowStride = bindings.layout.rowStride;
    constants.shift = pass.shift;
    constants.endBit = pass.endBit;
    constants.flags = pass.flags;
    constants.maxCount = bindings.maxCount;
    constants.table = pass.table;
    const Functions& fn = sorter.fn;
    fn.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.layout, 0, 1,
                               &bindings.sets[pass.set], 0, nullptr);
    fn.vkCmdPushConstants(cmd, sorter.pipelines.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), &constants);
}

namespace {

bool isIndirect(const PassParams& pass) { return (pass.flags & kFlagIndirect) != 0; }

// Byte offset of an info word inside the scratch buffer.
VkDeviceSize infoOffset(const VksortBindings_T& bindings, uint32_t word) {
    return bindings.scratch.offset + bindings.layout.tablesOffset + VkDeviceSize(word) * 4u;
}

void dispatchTiles(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   VkPipeline pipeline, const PassParams& pass) {
    sorter.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (isIndirect(pass)) {
        sorter.fn.vkCmdDispatchIndirect(cmd, bindings.scratch.buffer, infoOffset(bindings, kInfoTileArgs));
        return;
    }
    Grid grid = gridFor(ceilDiv(pass.count, sorter.tile.tileSize()), sorter.deviceInfo.facts.maxWorkgroupCount[0]);
    sorter.fn.vkCmdDispatch(cmd, grid.x, grid.y, 1);
}

} // namespace

void dispatchHistogram(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const PassParams& pass) {
    dispatchTiles(cmd, sorter, bindings, sorter.pipelines.histogram[keyWidthIndex(bindings.keyType)], pass);
}

void dispatchScan(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                  const PassParams& pass) {
    sorter.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.scan);
    if (isIndirect(pass)) {
        sorter.fn.vkCmdDispatchIndirect(cmd, bindings.scratch.buffer, infoOffset(bindings, kInfoScanArgs));
    } else {
        sorter.fn.vkCmdDispatch(cmd, kRadix, 1, 1); // one workgroup per digit row
    }
}

void dispatchReorder(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                     const PassParams& pass) {
    VkPipeline pipeline =
        sorter.pipelines.reorder[keyWidthIndex(bindings.keyType)][valueWidthIndex(bindings.valueType)];
    dispatchTiles(cmd, sorter, bindings, pipeline, pass);
}

void dispatchSingle(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const PassParams& pass) {
    VkPipeline pipeline = sorter.pipelines.single[keyWidthIndex(bindings.keyType)][valueWidthIndex(bindings.valueType)];
    sorter.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (isIndirect(pass)) {
        sorter.fn.vkCmdDispatchIndirect(cmd, bindings.scratch.buffer, infoOffset(bindings, kInfoSingleArgs));
    } else {
        sorter.fn.vkCmdDispatch(cmd, 1, 1, 1);
    }
}

void recordComputeBarrier(VkCommandBuffer cmd, const VksortSorter_T& sorter, bool indirect) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    VkPipelineStageFlags dstStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    if (indirect) {
        barrier.dstAccessMask |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
        dstStages |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
    }
    sorter.fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dstStages, 0, 1, &barrier, 0, nullptr, 0,
                                   nullptr);
}

} // namespace vksort

using namespace vksort;

namespace {

// Validates a sort request and plans its passes; shared by the query and the recordings.
// Indirect sorts (`checkCount` false) ignore pInfo->count.
VkResult planSort(VksortSorter sorter, const VksortSortInfo* pInfo, PassPlan* plan, const char* function,
                  bool checkCount = true) {
    if (sorter == nullptr || pInfo == nullptr) return invalidUsage(function, "sorter and pInfo must not be NULL");
    if (pInfo->pNext != nullptr) return invalidUsage(function, "pInfo->pNext must be NULL");
    const VksortBindings_T* bindings = pInfo->bindings;
    if (bindings == nullptr) return invalidUsage(function, "pInfo->bindings must not be NULL");
    if (checkCount && pInfo->count > bindings->maxCount) {
        return invalidUsage(function, "count " + std::to_string(pInfo->count) + " exceeds the bindings' maxCount " +
                                          std::to_string(bindings->maxCount));
    }
    if (pInfo->order != VKSORT_ORDER_ASCENDING && pInfo->order != VKSORT_ORDER_DESCENDING) {
        return invalidUsage(function, "order is not a VksortOrder");
    }
    std::string reason;
    if (!planPasses(vksortKeySize(bindings->keyType) * 8u, pInfo->beginBit, pInfo->endBit, plan, &reason)) {
        return invalidUsage(function, reason);
    }
    return VK_SUCCESS;
}

void describeResult(const VksortBindings_T& bindings, const PassPlan& plan, VksortSortResult* result) {
    VksortSortResult r{};
    r.passCount = plan.passCount;
    r.inScratch = plan.passCount % 2 == 1 ? VK_TRUE : VK_FALSE;
    const ScratchLayout& l = bindings.layout;
    const VksortBufferRange& s = bindings.scratch;
    r.keys = r.inScratch ? VksortBufferRange{s.buffer, s.offset + l.keysOffset, l.keysBytes} : bindings.keys;
    if (bindings.valueType != VKSORT_VALUE_TYPE_NONE) {
        r.values = r.inScratch ? VksortBufferRange{s.buffer, s.offset + l.valuesOffset, l.valuesBytes} : bindings.values;
    }
    *result = r;
}

// The data path of every sort. `indirect`: the count is in the caller's buffer (copied into
// the tables, launches computed by the setup dispatch); otherwise it is pInfo->count.
void recordSort(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortSortInfo& info, const PassPlan& plan,
                const VkDescriptorBufferInfo* indirect) {
    const VksortBindings_T& bindings = *info.bindings;
    const Functions& fn = sorter.fn;

    // Optional profiling: one timestamp before the sort and one after each dispatch of a pass.
    uint32_t nextQuery = info.firstTimestampQuery;
    auto timestamp = [&]() {
        if (info.timestampQueryPool == VK_NULL_HANDLE) return;
        fn.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, info.timestampQueryPool, nextQuery++);
    };
    timestamp();

    uint32_t baseFlags = orderFlags(bindings.keyType, info.order);
    if (bindings.valueType == VKSORT_VALUE_TYPE_INDEX) baseFlags |= kFlagIndexValues;
    if (indirect != nullptr) baseFlags |= kFlagIndirect;
    // Either path leaves the result where the passes would: in place for an even pass count.
    PassParams first;
    first.count = info.count;
    first.shift = plan.beginBit;
    first.endBit = plan.endBit;
    first.flags = baseFlags;
    first.set = plan.passCount % 2 == 1 ? kSetForward : kSetInPlace;

    bool small = false, inlineScan = false;
    if (indirect != nullptr) {
        // The caller's count into the tables; the setup dispatch turns it into every launch below.
        VkBufferCopy region{indirect->offset, infoOffset(bindings, kInfoRequested), 4};
        fn.vkCmdCopyBuffer(cmd, indirect->buffer, bindings.scratch.buffer, 1, &region);
        VkMemoryBarrier copied{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        copied.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        copied.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                &copied, 0, nullptr, 0, nullptr);
        VksortPushConstants setup{};
        setup.count = sorter.singleTile.tileSize();
        setup.numTiles = kInlineScanMaxTiles;
        setup.maxCount = bindings.maxCount;
        setup.dispatchWidth = sorter.deviceInfo.facts.maxWorkgroupCount[0];
        fn.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.layout, 0, 1,
                                   &bindings.sets[kSetForward], 0, nullptr);
        fn.vkCmdPushConstants(cmd, sorter.pipelines.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(setup), &setup);
        fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.setup);
        fn.vkCmdDispatch(cmd, 1, 1, 1);
        recordComputeBarrier(cmd, sorter, true);
        // Both paths are recorded; the setup gave the one not taken zero workgroups.
        bindPass(cmd, sorter, bindings, first);
        dispatchSingle(cmd, sorter, bindings, first);
        recordComputeBarrier(cmd, sorter, true);
    } else {
        small = info.count <= sorter.singleTile.tileSize();
        inlineScan = useInlineScan(ceilDiv(info.count, sorter.tile.tileSize()));
        if (small) {
            // Every pass inside one workgroup: one dispatch.
            bindPass(cmd, sorter, bindings, first);
            dispatchSingle(cmd, sorter, bindings, first);
            for (uint32_t q = 0; q < 3 * plan.passCount; ++q) timestamp();
            return;
        }
    }

    // The histogram runs for the first pass only: every reorder counts the next pass's digits
    // per destination tile while it writes. Per pass then: scan the counts into offsets (unless
    // tiles are few enough for the reorder to sum them itself), reorder into the other buffer of
    // the ping-pong pair. Even passes read the caller's buffers, odd passes the scratch.
    // Skipped dispatches still get their timestamp, so the query layout stays fixed.
    for (uint32_t p = 0; p < plan.passCount; ++p) {
        PassParams pass;
        pass.count = info.count;
        pass.shift = plan.shift(p);
        pass.endBit = plan.endBit;
        pass.flags = p == 0 ? baseFlags : baseFlags & ~kFlagIndexValues;
        if (p + 1 < plan.passCount) pass.flags |= kFlagNextHistogram;
        if (inlineScan) pass.flags |= kFlagInlineScan;
        pass.table = p % kHistogramTables;
        pass.set = p % 2 == 0 ? kSetForward : kSetBackward;

        bindPass(cmd, sorter, bindings, pass);
        if (p == 0) {
            dispatchHistogram(cmd, sorter, bindings, pass);
            recordComputeBarrier(cmd, sorter, indirect != nullptr);
        }
        timestamp();
        if (indirect != nullptr || !inlineScan) {
            dispatchScan(cmd, sorter, bindings, pass);
            recordComputeBarrier(cmd, sorter, indirect != nullptr);
        }
        timestamp();
        dispatchReorder(cmd, sorter, bindings, pass);
        timestamp();
        if (p + 1 < plan.passCount) recordComputeBarrier(cmd, sorter, indirect != nullptr);
    }
}

} // namespace

extern "C" VkResult vksortGetSortResult(VksortSorter sorter, const VksortSortInfo* pInfo, VksortSortResult* pResult) {
    PassPlan plan;
    VkResult result = planSort(sorter, pInfo, &plan, __func__);
    if (result != VK_SUCCESS) return result;
    VKSORT_REQUIRE(pResult != nullptr, "pResult must not be NULL");
    describeResult(*pInfo->bindings, plan, pResult);
    return VK_SUCCESS;
}

extern "C" VkResult vksortCmdSort(VkCommandBuffer commandBuffer, VksortSorter sorter, const VksortSortInfo* pInfo,
                                  VksortSortResult* pResult) {
    VKSORT_REQUIRE(commandBuffer != VK_NULL_HANDLE, "commandBuffer must not be VK_NULL_HANDLE");
    PassPlan plan;
    VkResult result = planSort(sorter, pInfo, &plan, __func__);
    if (result != VK_SUCCESS) return result;
    if (pResult != nullptr) describeResult(*pInfo->bindings, plan, pResult);
    if (pInfo->count != 0) {
        recordSort(commandBuffer, *sorter, *pInfo, plan, nullptr);
    } else if (pInfo->timestampQueryPool != VK_NULL_HANDLE) {
        // Nothing to sort, but a profiler waiting on the queries must still get them.
        for (uint32_t q = 0; q < vksortTimestampQueryCount(plan.passCount); ++q) {
            sorter->fn.vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                                           pInfo->timestampQueryPool, pInfo->firstTimestampQuery + q);
        }
    }
    return VK_SUCCESS;
}

extern "C" VkResult vksortCmdSortIndirect(VkCommandBuffer commandBuffer, VksortSorter sorter,
                                          const VksortSortInfo* pInfo, VkBuffer countBuffer,
                                          VkDeviceSize countOffset, VksortSortResult* pResult) {
    VKSORT_REQUIRE(commandBuffer != VK_NULL_HANDLE, "commandBuffer must not be VK_NULL_HANDLE");
    VKSORT_REQUIRE(countBuffer != VK_NULL_HANDLE, "countBuffer must not be VK_NULL_HANDLE");
    VKSORT_REQUIRE(countOffset % 4 == 0, "countOffset " + std::to_string(countOffset) + " must be a multiple of 4");
    PassPlan plan;
    VkResult result = planSort(sorter, pInfo, &plan, __func__, false);
    if (result != VK_SUCCESS) return result;
    if (pResult != nullptr) describeResult(*pInfo->bindings, plan, pResult);
    VkDescriptorBufferInfo count{countBuffer, countOffset, 4};
    recordSort(commandBuffer, *sorter, *pInfo, plan, &count);
    return VK_SUCCESS;
}
