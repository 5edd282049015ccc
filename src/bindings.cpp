// SPDX-License-Identifier: MIT
// Bindings: the descriptor sets that connect one set of caller buffers to the pipelines.
#include <new>
#include <string>

#include "diagnostics.hpp"
#include "objects.hpp"

using namespace vksort;

namespace {

std::string rangeText(const char* name, const VksortBufferRange& r) {
    return std::string(name) + " range (offset " + std::to_string(r.offset) + ", size " + std::to_string(r.size) + ")";
}

// Frees what vksortCreateBindings made; the caller keeps the sorter's count of live bindings.
void release(const VksortSorter_T& sorter, VksortBindings bindings) {
    if (bindings->pool != VK_NULL_HANDLE) sorter.fn.vkDestroyDescriptorPool(sorter.device, bindings->pool, sorter.allocator());
    delete bindings;
}

} // namespace

extern "C" VkResult vksortCreateBindings(VksortSorter sorter, const VksortBindingsCreateInfo* pCreateInfo,
                                         VksortBindings* pBindings) {
    VKSORT_REQUIRE(sorter != nullptr && pCreateInfo != nullptr && pBindings != nullptr,
                   "sorter, pCreateInfo and pBindings must not be NULL");
    const VksortBindingsCreateInfo& info = *pCreateInfo;
    VKSORT_REQUIRE(info.pNext == nullptr, "pNext must be NULL");
    *pBindings = VK_NULL_HANDLE;

    VksortMemoryRequirementsInfo requirementsInfo{nullptr, info.maxCount, info.keyType, info.valueType};
    VksortMemoryRequirements required{};
    VkResult result = memoryRequirements(*sorter, requirementsInfo, __func__, &required);
    if (result != VK_SUCCESS) return result;

    bool hasValues = info.valueType != VKSORT_VALUE_TYPE_NONE;
    struct Check {
        const char* name;
        const VksortBufferRange& range;
        const VksortBufferRequirements& need;
    };
    const Check checks[] = {{"keys", info.keys, required.keys},
                            {"values", info.values, required.values},
                            {"scratch", info.scratch, required.scratch}};
    for (const Check& c : checks) {
        if (c.need.size == 0) continue;
        VKSORT_REQUIRE(c.range.buffer != VK_NULL_HANDLE, std::string(c.name) + ".buffer must not be VK_NULL_HANDLE");
        VKSORT_REQUIRE(c.range.size != VK_WHOLE_SIZE, std::string(c.name) + ".size is VK_WHOLE_SIZE: give the range's "
                                                      "size in bytes (vksort cannot ask Vulkan how large a buffer is)");
        VKSORT_REQUIRE(c.range.offset % c.need.alignment == 0,
                       rangeText(c.name, c.range) + ": the offset must be a multiple of " +
                           std::to_string(c.need.alignment));
        VKSORT_REQUIRE(c.range.size >= c.need.size, rangeText(c.name, c.range) + " is smaller than the " +
                                                        std::to_string(c.need.size) + " bytes " +
                                                        std::to_string(info.maxCount) + " elements need");
        VKSORT_REQUIRE(c.range.offset + c.range.size >= c.range.offset, rangeText(c.name, c.range) + " wraps around");
    }
    VKSORT_REQUIRE(!overlap(info.keys, info.scratch), "the keys and scratch ranges overlap");
    if (hasValues) {
        VKSORT_REQUIRE(!overlap(info.keys, info.values), "the keys and values ranges overlap");
        VKSORT_REQUIRE(!overlap(info.values, info.scratch), "the values and scratch ranges overlap");
    }

    VksortBindings bindings = new (std::nothrow) VksortBindings_T;
    if (bindings == nullptr) return sorter->fail(VK_ERROR_OUT_OF_HOST_MEMORY, __func__, "out of host memory");
    bindings->sorter = sorter;
    bindings->maxCount = info.maxCount;
    bindings->keyType = info.keyType;
    bindings->valueType = info.valueType;
    bindings->keys = {info.keys.buffer, info.keys.offset, required.keys.size};
    if (hasValues) bindings->values = {info.values.buffer, info.values.offset, required.values.size};
    bindings->scratch = {info.scratch.buffer, info.scratch.offset, required.scratch.size};
    bindings->layout = planScratch(sorter->tile, info.maxCount, vksortKeySize(info.keyType), vksortValueSize(info.valueType),
                                   scratchAlignment(*sorter));

    const Functions& fn = sorter->fn;
    // The passes that run (a uniform buffer) and the pass arguments, only for a sorter whose
    // kernels use them.
    const VkDescriptorPoolSize poolSizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetCount * (kBindingCount - 1)},
                                              {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, kSetCount}};
    static_assert(kBindingPasses + 2 == kBindingCount && kBindingPassArgs + 1 == kBindingCount,
                  "the skipping sorters' two bindings come last");
    const uint32_t setCount = setsPerBindings(sorter->skipPasses);
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = setCount;
    poolInfo.poolSizeCount = sorter->skipPasses ? 2 : 1;
    poolInfo.pPoolSizes = poolSizes;
    result = fn.vkCreateDescriptorPool(sorter->device, &poolInfo, sorter->allocator(), &bindings->pool);
    if (result != VK_SUCCESS) {
        delete bindings;
        return sorter->fail(result, __func__, "vkCreateDescriptorPool failed");
    }
    VkDescriptorSetLayout layouts[kSetCount];
    for (VkDescriptorSetLayout& layout : layouts) layout = sorter->pipelines.setLayout;
    VkDescriptorSetAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocateInfo.descriptorPool = bindings->pool;
    allocateInfo.descriptorSetCount = setCount;
    allocateInfo.pSetLayouts = layouts;
    result = fn.vkAllocateDescriptorSets(sorter->device, &allocateInfo, bindings->sets);
    if (result != VK_SUCCESS) {
        release(*sorter, bindings);
        return sorter->fail(result, __func__, "vkAllocateDescriptorSets failed");
    }

    const ScratchLayout& l = bindings->layout;
    const VksortBufferRange& s = bindings->scratch;
    const VkDescriptorBufferInfo callerKeys{bindings->keys.buffer, bindings->keys.offset, bindings->keys.size};
    const VkDescriptorBufferInfo scratchKeys{s.buffer, s.offset + l.keysOffset, l.keysBytes};
    const VkDescriptorBufferInfo callerValues{bindings->values.buffer, bindings->values.offset, bindings->values.size};
    const VkDescriptorBufferInfo scratchValues{s.buffer, s.offset + l.valuesOffset, l.valuesBytes};
    const VkDescriptorBufferInfo tables{s.buffer, s.offset + l.tablesOffset, l.tablesBytes};
    const VkDescriptorBufferInfo passes{s.buffer, s.offset + l.passArgsOffset, kPassWords * 4u};
    const VkDescriptorBufferInfo passArgs{s.buffer, s.offset + l.passArgsOffset, l.passArgsBytes};
    const VkDescriptorBufferInfo spareArgs{s.buffer, s.offset + l.spareArgsOffset, l.passArgsBytes};
    const VkDescriptorBufferInfo launchArgs{s.buffer, s.offset + l.launchOffset, l.launchBytes};

    VkWriteDescriptorSet writes[kSetCount * kBindingCount];
    uint32_t writeCount = 0;
    auto write = [&](VkDescriptorSet set, uint32_t binding, const VkDescriptorBufferInfo* buffer) {
        VkWriteDescriptorSet& w = writes[writeCount++];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = binding == kBindingPasses ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = buffer;
    };
    struct Direction {
        const VkDescriptorBufferInfo *keysIn, *keysOut, *valuesIn, *valuesOut;
    };
    const Direction directions[kSetCount] = {
        {&callerKeys, &scratchKeys, &callerValues, &scratchValues},  // kSetForward
        {&scratchKeys, &callerKeys, &scratchValues, &callerValues},  // kSetBackward
        {&callerKeys, &callerKeys, &callerValues, &callerValues},    // kSetInPlace
        {&callerKeys, &launchArgs, &callerValues, &scratchValues},   // kSetLaunch (kBindingLaunchArgs)
        {&callerKeys, &scratchKeys, &callerValues, &scratchValues},  // kSetDeciding
    };
    for (uint32_t set = 0; set < setCount; ++set) {
        write(bindings->sets[set], kBindingKeysIn, directions[set].keysIn);
        write(bindings->sets[set], kBindingKeysOut, directions[set].keysOut);
        if (hasValues) {
            write(bindings->sets[set], kBindingValuesIn, directions[set].valuesIn);
            write(bindings->sets[set], kBindingValuesOut, directions[set].valuesOut);
        }
        write(bindings->sets[set], kBindingTables, &tables);
        if (sorter->skipPasses) {
            write(bindings->sets[set], kBindingPasses, &passes);
            write(bindings->sets[set], kBindingPassArgs, set == kSetDeciding ? &passArgs : &spareArgs);
        }
    }
    fn.vkUpdateDescriptorSets(sorter->device, writeCount, writes, 0, nullptr);
    ++sorter->liveBindings;
    *pBindings = bindings;
    return VK_SUCCESS;
}

extern "C" void vksortDestroyBindings(VksortSorter sorter, VksortBindings bindings) {
    if (bindings == nullptr) return;
    VKSORT_REQUIRE_VOID(sorter != nullptr, "sorter must not be NULL");
    VKSORT_REQUIRE_VOID(bindings->sorter == sorter, "bindings were created with another sorter");
    release(*sorter, bindings);
    --sorter->liveBindings;
}
