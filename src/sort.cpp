// SPDX-License-Identifier: MIT
// The C API's sort entry points (vksortCmdSort, vksortCmdSortIndirect, vksortGetSortResult):
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
// (src/record.cpp), so it needs no copy.
void recordSort(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortSortInfo& info, const Request& request,
                const VkDescriptorBufferInfo* countSource) {
    ProgramInput in = programInput(sorter, *request.bindings, request.plan, info.order, info.count, countSource != nullptr);
    if (countSource != nullptr && sorter.pushDescriptors) {
        in.countBound = true;
        in.countWord = uint32_t(countSource->offset % sorter.deviceInfo.facts.minStorageBufferOffsetAlignment / 4u);
    }
    Program program;
    buildProgram(in, &program);
    recordProgram(cmd, sorter, *request.bindings, program, {info.timestampQueryPool, info.firstTimestampQuery},
                  countSource);
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
    recordSort(commandBuffer, *sorter, *pInfo, request, nullptr);
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
    recordSort(commandBuffer, *sorter, *pInfo, request, &count);
    return VK_SUCCESS;
}
