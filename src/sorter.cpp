// SPDX-License-Identifier: MIT
// The sorter's life cycle and the pure queries about it.
#include <algorithm>
#include <new>
#include <string>

#include "diagnostics.hpp"
#include "objects.hpp"
#include "tuning.hpp"

namespace vksort {

uint64_t scratchAlignment(const VksortSorter_T& sorter) {
    // The pass arguments' first words are also bound as a uniform buffer (kBindingPasses).
    const DeviceFacts& f = sorter.deviceInfo.facts;
    return alignUp(std::max(f.minStorageBufferOffsetAlignment, f.minUniformBufferOffsetAlignment), kVectorAlignment);
}

ScratchLayout sorterScratch(const VksortSorter_T& sorter, uint32_t maxCount, uint32_t keyBytes, uint32_t valueBytes) {
    const bool segmented = (sorter.flags & VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT) != 0;
    const SegmentLimits limits =
        segmentLimits(sorter.tinyMaxCount, sorter.shortMaxCount, sorter.tile.tileSize(), sorter.singleTiles[0].tileSize());
    return planScratch(sorter.tile, maxCount, keyBytes, valueBytes, scratchAlignment(sorter), segmented ? &limits : nullptr);
}

bool validKeyType(VksortKeyType type) { return type >= VKSORT_KEY_TYPE_UINT32 && type <= VKSORT_KEY_TYPE_FLOAT64; }
bool validValueType(VksortValueType type) {
    return type >= VKSORT_VALUE_TYPE_NONE && type <= VKSORT_VALUE_TYPE_INDEX;
}

bool serves(const VksortSorter_T& sorter, VksortKeyType keyType, VksortValueType valueType) {
    return (sorter.keyTypes & VKSORT_KEY_TYPE_BIT(keyType)) != 0 &&
           (sorter.valueTypes & VKSORT_VALUE_TYPE_BIT(valueType)) != 0;
}

namespace {

constexpr uint32_t kAllKeyTypes = (1u << (VKSORT_KEY_TYPE_FLOAT64 + 1)) - 1;
constexpr uint32_t kAllValueTypes = (1u << (VKSORT_VALUE_TYPE_INDEX + 1)) - 1;

VkResult fail(const VksortSorterCreateInfo& info, VkResult result, const std::string& message) {
    return explainError(info.pfnMessageCallback, info.pMessageUserData, result, "vksortCreateSorter", message);
}

} // namespace
} // namespace vksort

VkResult VksortSorter_T::fail(VkResult result, const char* function, const std::string& message) const {
    return vksort::explainError(messageCallback, messageUserData, result, function, message);
}

using namespace vksort;

extern "C" VkResult vksortCreateSorter(const VksortSorterCreateInfo* pCreateInfo, VksortSorter* pSorter) {
    VKSORT_REQUIRE(pCreateInfo != nullptr && pSorter != nullptr, "pCreateInfo and pSorter must not be NULL");
    const VksortSorterCreateInfo& info = *pCreateInfo;
    VKSORT_REQUIRE(info.pNext == nullptr, "pNext must be NULL");
    VKSORT_REQUIRE(info.instance != VK_NULL_HANDLE && info.physicalDevice != VK_NULL_HANDLE &&
                       info.device != VK_NULL_HANDLE,
                   "instance, physicalDevice and device must not be VK_NULL_HANDLE");
    VKSORT_REQUIRE(info.pfnGetInstanceProcAddr != nullptr, "pfnGetInstanceProcAddr must not be NULL");
    VKSORT_REQUIRE((info.flags & ~VkFlags(VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT |
                                          VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT |
                                          VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT |
                                          VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT |
                                          VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT |
                                          VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT |
                                          VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT)) == 0,
                   "flags holds unknown bits");
    VKSORT_REQUIRE((info.keyTypes & ~kAllKeyTypes) == 0, "keyTypes holds bits of no VksortKeyType");
    VKSORT_REQUIRE((info.valueTypes & ~kAllValueTypes) == 0, "valueTypes holds bits of no VksortValueType");
    *pSorter = VK_NULL_HANDLE;
    return createSorter(pCreateInfo, nullptr, pSorter);
}

VkResult vksort::createSorter(const VksortSorterCreateInfo* pCreateInfo, const TuningRow* tuning, VksortSorter* pSorter) {
    const VksortSorterCreateInfo& info = *pCreateInfo;
    Functions fn;
    const bool pushDescriptors = (info.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
    if (const char* missing = loadFunctions(info.pfnGetInstanceProcAddr, info.pfnGetDeviceProcAddr, info.instance,
                                            info.device, pushDescriptors, &fn)) {
        if (std::string(missing) == "vkCmdPushDescriptorSetKHR") {
            return fail(info, VK_ERROR_EXTENSION_NOT_PRESENT,
                        std::string("VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT is set but ") + missing +
                            " cannot be loaded (was the device created with VK_KHR_push_descriptor enabled?)");
        }
        return fail(info, VK_ERROR_INITIALIZATION_FAILED,
                    std::string("cannot load ") + missing + " (is the instance created for Vulkan 1.1?)");
    }

    const bool debugUtils = (info.flags & VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT) != 0;
    if (debugUtils) {
        if (const char* missing = loadDebugUtils(info.pfnGetInstanceProcAddr, info.instance, &fn)) {
            return fail(info, VK_ERROR_EXTENSION_NOT_PRESENT,
                        std::string("VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT is set but ") + missing +
                            " cannot be loaded (was the instance created with VK_EXT_debug_utils enabled?)");
        }
    }
    DeviceInfo device;
    std::string reason;
    VkResult result = queryDevice(fn, info.physicalDevice, info.apiVersion, &device, &reason);
    if (result != VK_SUCCESS) return fail(info, result, reason);

    bool sizeControl = (info.flags & VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT) != 0;
    if (sizeControl && !device.subgroupSizeControl) {
        return fail(info, VK_ERROR_FEATURE_NOT_PRESENT,
                    std::string("VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT is set but the device ") +
                        (device.sizeControlKnown ? "does not support the subgroupSizeControl feature"
                                                 : "has no subgroup size control"));
    }
    uint32_t required = info.requiredSubgroupSize;
    if (required != 0) {
        const DeviceFacts& f = device.facts;
        if (!sizeControl) {
            return fail(info, VK_ERROR_FEATURE_NOT_PRESENT,
                        "requiredSubgroupSize needs VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT");
        }
        if ((device.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) {
            return fail(info, VK_ERROR_FEATURE_NOT_PRESENT,
                        "the device cannot require a subgroup size in compute shaders");
        }
        if (!isPowerOfTwo(required)) {
            return fail(info, VK_ERROR_FEATURE_NOT_PRESENT,
                        "requiredSubgroupSize " + std::to_string(required) + " is not a power of two");
        }
        if (required < f.minSubgroupSize || required > f.maxSubgroupSize) {
            return fail(info, VK_ERROR_FEATURE_NOT_PRESENT,
                        "requiredSubgroupSize " + std::to_string(required) + " is outside the device's range for compute [" +
                            std::to_string(f.minSubgroupSize) + ", " + std::to_string(f.maxSubgroupSize) +
                            "] (VkPhysicalDeviceSubgroupSizeControlProperties)");
        }
    }

    const Variant variant = sorterVariant(info.flags);
    const bool segmented = (info.flags & VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT) != 0;
    const SetLayoutShape shape = setLayoutShape(variant, segmented);
    const char* bindingsFor = *variant.description != 0 ? variant.description : segmented ? "a segmented sorter" : "";
    if (!descriptorLimitsFit(device.facts, shape.storageBuffers, bindingsFor, &reason)) {
        return fail(info, VK_ERROR_FEATURE_NOT_PRESENT, reason);
    }

    const TuningRow& row = tuning != nullptr ? *tuning : tuningFor(device.facts);
    TileConfig tile;
    SubgroupControl control;
    control.fullSubgroupsAvailable = sizeControl && device.computeFullSubgroups;
    control.requiredSize = required;
    if (!chooseTileConfig(device.facts, row, info.workgroupSize, info.keysPerThread, control, &tile, &reason)) {
        return fail(info, VK_ERROR_FEATURE_NOT_PRESENT, reason);
    }

    PipelineOptions options;
    options.tile = tile;
    for (uint32_t k = 0; k < kKeyWidths; ++k) options.singleTiles[k] = chooseSingleTileConfig(device.facts, row, tile, control, k);
    options.countsTile = chooseCountsTileConfig(device.facts, row, tile, control);
    options.scanTile = chooseScanTileConfig(device.facts, row, tile, control);
    options.tinyTile = chooseTinyTileConfig(device.facts, row, tile, control);
    options.shortTile = chooseShortTileConfig(device.facts, row, tile, control);
    options.compareTile = chooseCompareTileConfig(device.facts, row, tile, control, &options.compare);
    for (uint32_t k = 0; k < kKeyWidths; ++k) {
        options.mergeTiles[k] = chooseMergeTileConfig(device.facts, row, tile, control, options.singleTiles[0].tileSize(), k,
                                                      &options.merges[k]);
        chooseChunkSort(device.facts, row, options.singleTiles[k], k, &options.merges[k]);
    }
    options.scan = chooseScanConfig(row);
    options.reorder = row.reorder;
    options.singleWholeTileCopies = row.single.wholeTileCopies;
    options.subgroupShuffle = device.facts.subgroupShuffle;
    options.variant = variant;
    options.segmented = segmented;
    options.requiredSubgroupSize = required;
    const uint32_t keyTypes = info.keyTypes != 0 ? info.keyTypes : kAllKeyTypes;
    const uint32_t valueTypes = info.valueTypes != 0 ? info.valueTypes : kAllValueTypes;
    for (uint32_t k = 0; k < kKeyWidths; ++k) options.keyWidths[k] = false;
    for (uint32_t v = 0; v < kValueWidths; ++v) options.valueWidths[v] = false;
    for (uint32_t t = 0; t <= VKSORT_KEY_TYPE_FLOAT64; ++t) {
        if ((keyTypes & VKSORT_KEY_TYPE_BIT(t)) != 0) options.keyWidths[keyWidthIndex(VksortKeyType(t))] = true;
    }
    for (uint32_t t = 0; t <= VKSORT_VALUE_TYPE_INDEX; ++t) {
        if ((valueTypes & VKSORT_VALUE_TYPE_BIT(t)) != 0) options.valueWidths[valueWidthIndex(VksortValueType(t))] = true;
    }
    options.captureStatistics = (info.flags & VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT) != 0;
    options.threaded = (info.flags & VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT) == 0;
    options.debugUtils = debugUtils;
    options.pushDescriptors = pushDescriptors;

    VksortSorter sorter = new (std::nothrow) VksortSorter_T;
    if (sorter == nullptr) return fail(info, VK_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    sorter->fn = fn;
    sorter->device = info.device;
    if (info.pAllocationCallbacks != nullptr) {
        sorter->hasAllocator = true;
        sorter->allocatorCopy = *info.pAllocationCallbacks;
    }
    sorter->deviceInfo = device;
    sorter->tile = tile;
    for (uint32_t k = 0; k < kKeyWidths; ++k) sorter->singleTiles[k] = options.singleTiles[k];
    sorter->scan = options.scan;
    sorter->compare = options.compare;
    for (uint32_t k = 0; k < kKeyWidths; ++k) sorter->merges[k] = options.merges[k];
    sorter->tinyMaxCount = options.tinyTile.workgroupSize;
    sorter->shortMaxCount = options.shortTile.tileSize();
    sorter->segmentLaunchThreads = row.segments.launchThreads;
    sorter->variant = variant;
    sorter->debugUtils = debugUtils;
    sorter->pushDescriptors = pushDescriptors;
    sorter->flags = info.flags;
    sorter->subgroupSize = required != 0 ? required : device.facts.subgroupSize;
    sorter->keyTypes = keyTypes;
    sorter->valueTypes = valueTypes;
    sorter->messageCallback = info.pfnMessageCallback;
    sorter->messageUserData = info.pMessageUserData;

    result = createPipelines(fn, info.device, sorter->allocator(), info.pipelineCache, options, &sorter->pipelines,
                             &reason);
    if (result != VK_SUCCESS) {
        delete sorter;
        return fail(info, result, reason + " failed");
    }
    *pSorter = sorter;
    return VK_SUCCESS;
}

extern "C" void vksortDestroySorter(VksortSorter sorter) {
    if (sorter == nullptr) return;
    const uint32_t live = sorter->liveBindings.load();
    VKSORT_REQUIRE_VOID(live == 0, "bindings created with this sorter still exist (" + std::to_string(live) +
                                       "): destroy them first; the sorter is left alive");
    destroyPipelines(sorter->fn, sorter->device, sorter->allocator(), &sorter->pipelines);
    delete sorter;
}

extern "C" void vksortGetSorterProperties(VksortSorter sorter, VksortSorterProperties* pProperties) {
    VKSORT_REQUIRE_VOID(sorter != nullptr && pProperties != nullptr, "sorter and pProperties must not be NULL");
    VksortSorterProperties p{};
    p.workgroupSize = sorter->tile.workgroupSize;
    p.keysPerThread = sorter->tile.keysPerThread;
    p.tileSize = sorter->tile.tileSize();
    p.singleDispatchMaxCount = sorter->singleTiles[0].tileSize();
    p.compareSortMaxCount = sorter->compare.maxCount;
    p.compareSortShareCount = sorter->compare.shareCount;
    p.mergeSortMaxCount = sorter->merges[0].maxCount;
    p.mergeSortMaxCount64 = sorter->merges[1].maxCount;
    p.subgroupSize = sorter->subgroupSize;
    p.minSubgroupSize = sorter->tile.workgroupSize / sorter->tile.maxSubgroups;
    p.maxCount32 = maxElementCount(sorter->deviceInfo.facts, sorter->tile, 4, 8);
    p.maxCount64 = maxElementCount(sorter->deviceInfo.facts, sorter->tile, 8, 8);
    p.flags = sorter->flags;
    *pProperties = p;
}

extern "C" uint32_t vksortGetMaxCount(VksortSorter sorter, VksortKeyType keyType, VksortValueType valueType) {
    if (sorter == nullptr) {
        (void)invalidUsage(__func__, "sorter must not be NULL");
        return 0;
    }
    if (!validKeyType(keyType) || !validValueType(valueType) || !serves(*sorter, keyType, valueType)) return 0;
    return maxElementCount(sorter->deviceInfo.facts, sorter->tile, vksortKeySize(keyType), vksortValueSize(valueType));
}

VkResult vksort::memoryRequirements(const VksortSorter_T& sorter, const VksortMemoryRequirementsInfo& info,
                                    const char* function, VksortMemoryRequirements* requirements) {
    if (info.pNext != nullptr) return invalidUsage(function, "pNext must be NULL");
    if (!validKeyType(info.keyType)) return invalidUsage(function, "keyType is not a VksortKeyType");
    if (!validValueType(info.valueType)) return invalidUsage(function, "valueType is not a VksortValueType");
    if (!serves(sorter, info.keyType, info.valueType)) {
        return invalidUsage(function, "the sorter was created without this key or value type "
                                      "(VksortSorterCreateInfo::keyTypes, valueTypes)");
    }
    uint32_t kb = vksortKeySize(info.keyType), vb = vksortValueSize(info.valueType);
    uint32_t limit = maxElementCount(sorter.deviceInfo.facts, sorter.tile, kb, vb);
    if (info.maxCount < 1 || info.maxCount > limit) {
        return invalidUsage(function, "maxCount " + std::to_string(info.maxCount) + " must be in [1, " +
                                          std::to_string(limit) + "] for this key and value type on this device");
    }

    uint64_t alignment = sorter.deviceInfo.facts.minStorageBufferOffsetAlignment;
    VksortMemoryRequirements r{};
    // Keys are bound as storage buffers only: the uniform-buffer alignment is the scratch's alone.
    r.keys = {uint64_t(info.maxCount) * kb, alignUp(alignment, kVectorAlignment), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    if (vb != 0) r.values = {uint64_t(info.maxCount) * vb, alignUp(alignment, vb), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    ScratchLayout layout = sorterScratch(sorter, info.maxCount, kb, vb);
    r.scratch = {layout.totalBytes, scratchAlignment(sorter),
                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                     VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    *requirements = r;
    return VK_SUCCESS;
}

extern "C" VkResult vksortGetMemoryRequirements(VksortSorter sorter, const VksortMemoryRequirementsInfo* pInfo,
                                                VksortMemoryRequirements* pRequirements) {
    VKSORT_REQUIRE(sorter != nullptr && pInfo != nullptr && pRequirements != nullptr,
                   "sorter, pInfo and pRequirements must not be NULL");
    return memoryRequirements(*sorter, *pInfo, __func__, pRequirements);
}

extern "C" VkResult vksortGetSorterPipelines(VksortSorter sorter, uint32_t* pPipelineCount,
                                             VksortPipelineInfo* pPipelines) {
    VKSORT_REQUIRE(sorter != nullptr && pPipelineCount != nullptr, "sorter and pPipelineCount must not be NULL");
    if (pPipelines == nullptr) {
        *pPipelineCount = listPipelines(sorter->pipelines, nullptr, 0);
        return VK_SUCCESS;
    }
    const uint32_t total = listPipelines(sorter->pipelines, pPipelines, *pPipelineCount);
    if (*pPipelineCount < total) return VK_INCOMPLETE;
    *pPipelineCount = total;
    return VK_SUCCESS;
}
