// SPDX-License-Identifier: MIT
// The C API's sort entry points (vksortCmdSort, vksortCmdSortIndirect, vksortCmdSortSegments,
// vksortGetSortResult):
// they validate a request, plan its passes, describe where the result lands, and hand the
// program to the recorder (src/record.cpp).
#include <string>

#include "diagnostics.hpp"
#include "record.hpp"

using namespace vksort;

ProgramInput vksort::programInput(const VksortSorter_T& sorter, const VksortBindings_T& bindings, const PassPlan& passes,
                          VksortOrder order, uint32_t count, bool indirect) {
    ProgramInput in;
    in.tile = sorter.tile;
    in.singleMaxCount = sorter.singleTiles[0].tileSize();
    in.compare = sorter.compare;
    in.merge = sorter.merges[keyWidthIndex(bindings.keyType)];
    in.keyType = bindings.keyType;
    in.tinyMaxCount = sorter.tinyMaxCount;
    in.shortMaxCount = sorter.shortMaxCount;
    in.maxWorkgroupCountX = sorter.deviceInfo.facts.maxWorkgroupCount[0];
    in.maxCount = bindings.maxCount;
    in.rowStride = bindings.layout.rowStride;
    in.keyFlags = orderFlags(bindings.keyType, order);
    in.indexValues = bindings.valueType == VKSORT_VALUE_TYPE_INDEX;
    in.passes = passes;
    in.count = count;
    in.indirect = indirect;
    in.scan = sorter.scan;
    in.variant = sorter.variant;
    return in;
}

namespace {

// A validated request: its buffers (the bindings object, or the buffers given, described in
// `given`) and its passes.
struct Request {
    VksortBindings_T given;
    const VksortBindings_T* bindings = nullptr;
    PassPlan plan;
};

// Validates a sort request and plans its passes; shared by the query and the recordings.
// Indirect sorts and the result query (`checkCount` false) ignore pInfo->count.
VkResult planSort(VksortSorter sorter, const VksortSortInfo* pInfo, Request* request, const char* function,
                  bool checkCount = true) {
    if (sorter == nullptr || pInfo == nullptr) return invalidUsage(function, "sorter and pInfo must not be NULL");
    if (pInfo->pNext != nullptr) return invalidUsage(function, "pInfo->pNext must be NULL");
    if (pInfo->bindings != nullptr) {
        if (pInfo->pBuffers != nullptr) {
            return invalidUsage(function, "pInfo->bindings and pInfo->pBuffers are both set: give one of them");
        }
        // Their layout (tiles per counts table) and format were planned for one sorter.
        if (pInfo->bindings->sorter != sorter) {
            return invalidUsage(function, "pInfo->bindings were created with another sorter");
        }
        request->bindings = pInfo->bindings;
    } else {
        if (pInfo->pBuffers == nullptr) return invalidUsage(function, "pInfo->bindings or pInfo->pBuffers must be set");
        if (!sorter->pushDescriptors) {
            return invalidUsage(function, "pInfo->pBuffers needs a sorter created with "
                                          "VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT; without it, create bindings "
                                          "(vksortCreateBindings) and set pInfo->bindings");
        }
        VkResult result = describeBuffers(*sorter, *pInfo->pBuffers, function, &request->given);
        if (result != VK_SUCCESS) return result;
        request->bindings = &request->given;
    }
    const VksortBindings_T* bindings = request->bindings;
    PassPlan* plan = &request->plan;
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
    // Vulkan cannot tell a pool's size, but query indices past UINT32_MAX would wrap onto query 0.
    const uint32_t queries = vksortTimestampQueryCount(plan->passCount);
    if (pInfo->timestampQueryPool != VK_NULL_HANDLE && pInfo->firstTimestampQuery > UINT32_MAX - queries) {
        return invalidUsage(function, "firstTimestampQuery " + std::to_string(pInfo->firstTimestampQuery) + " + the " +
                                          std::to_string(queries) + " queries of this sort pass UINT32_MAX");
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

// Builds the program of a validated request and records it. With push descriptors an indirect
// sort reads the count where it lies: at word countWord of the range the launch set binds
// (src/record.cpp), so it needs no copy; so does a segmented sort its offsets.
void recordSort(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortSortInfo& info, const Request& request,
                const SideBuffers& side, const SegmentsInput& segments = {}) {
    const VkDescriptorBufferInfo* countSource = side.count;
    ProgramInput in = programInput(sorter, *request.bindings, request.plan, info.order, info.count, countSource != nullptr);
    const VkDeviceSize alignment = sorter.deviceInfo.facts.minStorageBufferOffsetAlignment;
    if (countSource != nullptr && sorter.pushDescriptors) {
        in.countBound = true;
        in.countWord = uint32_t(countSource->offset % alignment / 4u);
    }
    in.segments = segments;
    in.segments.launchThreads = sorter.segmentLaunchThreads;
    if (side.offsets != nullptr) in.segments.offsetsWord = uint32_t(side.offsets->offset % alignment / 4u);
    if (side.segmentCount != nullptr) {
        in.segments.countIn = true;
        in.segments.countWord = uint32_t(side.segmentCount->offset % alignment / 4u);
    }
    Program program;
    buildProgram(in, &program);
    recordProgram(cmd, sorter, *request.bindings, program, {info.timestampQueryPool, info.firstTimestampQuery}, side);
}

} // namespace

extern "C" VkResult vksortGetSortResult(VksortSorter sorter, const VksortSortInfo* pInfo, VksortSortResult* pResult) {
    Request request;
    VkResult result = planSort(sorter, pInfo, &request, __func__, false);
    if (result != VK_SUCCESS) return result;
    VKSORT_REQUIRE(pResult != nullptr, "pResult must not be NULL");
    describeResult(*request.bindings, request.plan, pResult);
    return VK_SUCCESS;
}

extern "C" VkResult vksortCmdSort(VkCommandBuffer commandBuffer, VksortSorter sorter, const VksortSortInfo* pInfo,
                                  VksortSortResult* pResult) {
    VKSORT_REQUIRE(commandBuffer != VK_NULL_HANDLE, "commandBuffer must not be VK_NULL_HANDLE");
    Request request;
    VkResult result = planSort(sorter, pInfo, &request, __func__);
    if (result != VK_SUCCESS) return result;
    if (pResult != nullptr) describeResult(*request.bindings, request.plan, pResult);
    recordSort(commandBuffer, *sorter, *pInfo, request, {});
    return VK_SUCCESS;
}

extern "C" VkResult vksortCmdSortIndirect(VkCommandBuffer commandBuffer, VksortSorter sorter,
                                          const VksortSortInfo* pInfo, VkBuffer countBuffer,
                                          VkDeviceSize countOffset, VksortSortResult* pResult) {
    VKSORT_REQUIRE(commandBuffer != VK_NULL_HANDLE, "commandBuffer must not be VK_NULL_HANDLE");
    VKSORT_REQUIRE(countBuffer != VK_NULL_HANDLE, "countBuffer must not be VK_NULL_HANDLE");
    VKSORT_REQUIRE(countOffset % 4 == 0, "countOffset " + std::to_string(countOffset) + " must be a multiple of 4");
    VKSORT_REQUIRE(countOffset <= VK_WHOLE_SIZE - 4, "countOffset " + std::to_string(countOffset) + " wraps around");
    Request request;
    VkResult result = planSort(sorter, pInfo, &request, __func__, false);
    if (result != VK_SUCCESS) return result;
    // The sort may write any of its scratch range before it reads the count.
    VKSORT_REQUIRE(!overlap({countBuffer, countOffset, 4}, request.bindings->scratch),
                   "the count (countOffset " + std::to_string(countOffset) +
                       ") lies inside the bindings' scratch range, which the sort writes");
    if (pResult != nullptr) describeResult(*request.bindings, request.plan, pResult);
    VkDescriptorBufferInfo count{countBuffer, countOffset, 4};
    SideBuffers side;
    side.count = &count;
    recordSort(commandBuffer, *sorter, *pInfo, request, side);
    return VK_SUCCESS;
}

extern "C" VkResult vksortCmdSortSegments(VkCommandBuffer commandBuffer, VksortSorter sorter,
                                          const VksortSortInfo* pInfo, const VksortSegmentsInfo* pSegments,
                                          VksortSortResult* pResult) {
    VKSORT_REQUIRE(commandBuffer != VK_NULL_HANDLE, "commandBuffer must not be VK_NULL_HANDLE");
    VKSORT_REQUIRE(pSegments != nullptr, "pSegments must not be NULL");
    const VksortSegmentsInfo& segments = *pSegments;
    VKSORT_REQUIRE(segments.pNext == nullptr, "pSegments->pNext must be NULL");
    Request request;
    VkResult result = planSort(sorter, pInfo, &request, __func__);
    if (result != VK_SUCCESS) return result;
    VKSORT_REQUIRE((sorter->flags & VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT) != 0,
                   "the sorter was created without VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT");
    const DeviceFacts& facts = sorter->deviceInfo.facts;
    const uint32_t maxSegments = 1u << 31; // (the kernels' batches of segments count in 32 bits)
    VKSORT_REQUIRE(segments.segmentCount >= 1 && segments.segmentCount <= maxSegments,
                   "segmentCount " + std::to_string(segments.segmentCount) + " must be in [1, 2^31]");
    SegmentsInput in;
    in.count = segments.segmentCount;
    in.size = segments.segmentSize;
    VkDescriptorBufferInfo offsets{};
    SideBuffers side;
    if (segments.segmentSize == 0) {
        VKSORT_REQUIRE(sorter->pushDescriptors,
                       "segment offsets need a sorter created with VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT, which "
                       "reads them in place (or give uniform segments: segmentSize)");
        VKSORT_REQUIRE(segments.offsetsBuffer != VK_NULL_HANDLE, "pSegments->offsetsBuffer must not be VK_NULL_HANDLE");
        VKSORT_REQUIRE(segments.offsetsOffset % 4 == 0,
                       "offsetsOffset " + std::to_string(segments.offsetsOffset) + " must be a multiple of 4");
        const uint64_t bytes = (uint64_t(segments.segmentCount) + 1) * 4;
        const uint64_t misalignment = segments.offsetsOffset % facts.minStorageBufferOffsetAlignment;
        VKSORT_REQUIRE(segments.offsetsOffset <= VK_WHOLE_SIZE - bytes && misalignment + bytes <= facts.maxStorageBufferRange,
                       "the " + std::to_string(segments.segmentCount + 1ull) + " offsets at offsetsOffset " +
                           std::to_string(segments.offsetsOffset) + " wrap around or pass maxStorageBufferRange");
        VKSORT_REQUIRE(!overlap({segments.offsetsBuffer, segments.offsetsOffset, bytes}, request.bindings->scratch),
                       "the offsets lie inside the bindings' scratch range, which the sort writes");
        offsets = {segments.offsetsBuffer, segments.offsetsOffset, bytes};
        side.offsets = &offsets;
    }
    VkDescriptorBufferInfo segmentCount{};
    if (segments.segmentCountBuffer != VK_NULL_HANDLE) {
        VKSORT_REQUIRE(segments.segmentSize == 0,
                       "a segment count read on the GPU (segmentCountBuffer) needs segments by offsets (segmentSize 0)");
        VKSORT_REQUIRE(segments.segmentCountOffset % 4 == 0,
                       "segmentCountOffset " + std::to_string(segments.segmentCountOffset) + " must be a multiple of 4");
        VKSORT_REQUIRE(segments.segmentCountOffset <= VK_WHOLE_SIZE - 4,
                       "segmentCountOffset " + std::to_string(segments.segmentCountOffset) + " wraps around");
        VKSORT_REQUIRE(!overlap({segments.segmentCountBuffer, segments.segmentCountOffset, 4}, request.bindings->scratch),
                       "the segment count lies inside the bindings' scratch range, which the sort writes");
        segmentCount = {segments.segmentCountBuffer, segments.segmentCountOffset, 4};
        side.segmentCount = &segmentCount;
    }
    if (pResult != nullptr) describeResult(*request.bindings, request.plan, pResult);
    recordSort(commandBuffer, *sorter, *pInfo, request, side, in);
    return VK_SUCCESS;
}
