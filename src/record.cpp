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

void dispatchTiles(VkCommandBuffer cmd, const VksortSorter_T& sorter, VkPipeline pipeline, uint32_t count) {
    Grid grid = gridFor(ceilDiv(count, sorter.tile.tileSize()), sorter.deviceInfo.facts.maxWorkgroupCount[0]);
    sorter.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    sorter.fn.vkCmdDispatch(cmd, grid.x, grid.y, 1);
}

} // namespace

void dispatchCount(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const PassParams& pass) {
    dispatchTiles(cmd, sorter, sorter.pipelines.count[keyWidthIndex(bindings.keyType)], pass.count);
}

void dispatchScan(VkCommandBuffer cmd, const VksortSorter_T& sorter) {
    sorter.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.scan);
    sorter.fn.vkCmdDispatch(cmd, kRadix, 1, 1); // one workgroup per digit row
}

void dispatchReorder(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                     const PassParams& pass) {
    VkPipeline pipeline =
        sorter.pipelines.reorder[keyWidthIndex(bindings.keyType)][valueWidthIndex(bindings.valueType)];
    dispatchTiles(cmd, sorter, pipeline, pass.count);
}

void dispatchSmall(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings) {
    VkPipeline pipeline = sorter.pipelines.small[keyWidthIndex(bindings.keyType)][valueWidthIndex(bindings.valueType)];
    sorter.fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    sorter.fn.vkCmdDispatch(cmd, 1, 1, 1);
}

void recordComputeBarrier(VkCommandBuffer cmd, const VksortSorter_T& sorter) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    sorter.fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                   1, &barrier, 0, nullptr, 0, nullptr);
}

} // namespace vksort

using namespace vksort;

namespace {

// Validates a sort request and plans its passes; shared by the query and the recording.
VkResult planSort(VksortSorter sorter, const VksortSortInfo* pInfo, PassPlan* plan, const char* function) {
    if (sorter == nullptr || pInfo == nullptr) return invalidUsage(function, "sorter and pInfo must not be NULL");
    if (pInfo->pNext != nullptr) return invalidUsage(function, "pInfo->pNext must be NULL");
    const VksortBindings_T* bindings = pInfo->bindings;
    if (bindings == nullptr) return invalidUsage(function, "pInfo->bindings must not be NULL");
    if (pInfo->count > bindings->maxCount) {
        return invalidUsage(function, "count " + std::to_string(pInfo->count) + " exceeds the bindings' maxCount " +
                                          std::to_string(bindings->maxCount));
    }
    if (pInfo->order != VKSORT_ORDER_ASCENDING && pInfo->order != VKSORT_ORDER_DESCENDING) {
        return invalidUsage(function, "order is not a VksortOrder");
    }
    std::string reason;
    if (!planPasses(keyBytes(bindings->keyType) * 8u, pInfo->beginBit, pInfo->endBit, plan, &reason)) {
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
    const VksortBindings_T& bindings = *pInfo->bindings;
    if (pResult != nullptr) describeResult(bindings, plan, pResult);
    if (pInfo->count == 0) return VK_SUCCESS;

    // Optional profiling: one timestamp before the sort and one after each dispatch.
    uint32_t nextQuery = pInfo->firstTimestampQuery;
    auto timestamp = [&]() {
        if (pInfo->timestampQueryPool == VK_NULL_HANDLE) return;
        sorter->fn.vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pInfo->timestampQueryPool,
                                       nextQuery++);
    };
    timestamp();

    uint32_t baseFlags = orderFlags(bindings.keyType, pInfo->order);
    if (bindings.valueType == VKSORT_VALUE_TYPE_INDEX) baseFlags |= kFlagIndexValues;

    // Small sorts: every pass inside one workgroup, one dispatch, the result written where the
    // passes would have left it (in place for an even pass count).
    if (pInfo->count <= sorter->smallTile.tileSize()) {
        PassParams pass;
        pass.count = pInfo->count;
        pass.shift = plan.beginBit;
        pass.endBit = plan.endBit;
        pass.flags = baseFlags;
        pass.set = plan.passCount % 2 == 1 ? kSetForward : kSetInPlace;
        bindPass(commandBuffer, *sorter, bindings, pass);
        dispatchSmall(commandBuffer, *sorter, bindings);
        for (uint32_t q = 0; q < 3 * plan.passCount; ++q) timestamp();
        return VK_SUCCESS;
    }

    // The count pass runs for the first pass only: every reorder counts the next pass's digits
    // per destination tile while it writes. Per pass then: scan the counts into offsets (unless
    // tiles are few enough for the reorder to sum them itself), reorder into the other buffer of
    // the ping-pong pair. Even passes read the caller's buffers, odd passes the scratch.
    // Skipped dispatches still get their timestamp, so the query layout stays fixed.
    bool inlineScan = useInlineScan(ceilDiv(pInfo->count, sorter->tile.tileSize()));
    for (uint32_t p = 0; p < plan.passCount; ++p) {
        PassParams pass;
        pass.count = pInfo->count;
        pass.shift = plan.shift(p);
        pass.endBit = plan.endBit;
        pass.flags = p == 0 ? baseFlags : baseFlags & ~kFlagIndexValues;
        if (p + 1 < plan.passCount) pass.flags |= kFlagCountNext;
        if (inlineScan) pass.flags |= kFlagInlineScan;
        pass.table = p % kCountTables;
        pass.set = p % 2 == 0 ? kSetForward : kSetBackward;

        bindPass(commandBuffer, *sorter, bindings, pass);
        if (p == 0) {
            dispatchCount(commandBuffer, *sorter, bindings, pass);
            recordComputeBarrier(commandBuffer, *sorter);
        }
        timestamp();
        if (!inlineScan) {
            dispatchScan(commandBuffer, *sorter);
            recordComputeBarrier(commandBuffer, *sorter);
        }
        timestamp();
        dispatchReorder(commandBuffer, *sorter, bindings, pass);
        timestamp();
        if (p + 1 < plan.passCount) recordComputeBarrier(commandBuffer, *sorter);
    }
    return VK_SUCCESS;
}
