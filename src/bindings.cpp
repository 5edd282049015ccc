// SPDX-License-Identifier: MIT
// Bindings: one set of caller buffers checked and laid out for a sorter, and the descriptors that
// connect them to the pipelines: written once into descriptor sets (VksortBindings), or pushed as
// a sort records (VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT).
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

VkResult vksort::describeBuffers(const VksortSorter_T& sorter, const VksortBindingsCreateInfo& info, const char* function,
                                 VksortBindings_T* out) {
    VKSORT_REQUIRE_FOR(function, info.pNext == nullptr, "the buffers' pNext must be NULL");
    VksortMemoryRequirementsInfo requirementsInfo{nullptr, info.maxCount, info.keyType, info.valueType};
    VksortMemoryRequirements required{};
    VkResult result = memoryRequirements(sorter, requirementsInfo, function, &required);
    if (result != VK_SUCCESS) return result;

    const bool hasValues = info.valueType != VKSORT_VALUE_TYPE_NONE;
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
        VKSORT_REQUIRE_FOR(function, c.range.buffer != VK_NULL_HANDLE,
                           std::string(c.name) + ".buffer must not be VK_NULL_HANDLE");
        VKSORT_REQUIRE_FOR(function, c.range.size != VK_WHOLE_SIZE,
                           std::string(c.name) + ".size is VK_WHOLE_SIZE: give the range's size in bytes (vksort "
                                                 "cannot ask Vulkan how large a buffer is)");
        VKSORT_REQUIRE_FOR(function, c.range.offset % c.need.alignment == 0,
                           rangeText(c.name, c.range) + ": the offset must be a multiple of " +
                               std::to_string(c.need.alignment));
        VKSORT_REQUIRE_FOR(function, c.range.size >= c.need.size,
                           rangeText(c.name, c.range) + " is smaller than the " + std::to_string(c.need.size) +
                               " bytes " + std::to_string(info.maxCount) + " elements need");
        VKSORT_REQUIRE_FOR(function, c.range.offset + c.range.size >= c.range.offset,
                           rangeText(c.name, c.range) + " wraps around");
    }
    VKSORT_REQUIRE_FOR(function, !overlap(info.keys, info.scratch), "the keys and scratch ranges overlap");
    if (hasValues) {
        VKSORT_REQUIRE_FOR(function, !overlap(info.keys, info.values), "the keys and values ranges overlap");
        VKSORT_REQUIRE_FOR(function, !overlap(info.values, info.scratch), "the values and scratch ranges overlap");
    }
    out->sorter = &sorter;
    out->maxCount = info.maxCount;
    out->keyType = info.keyType;
    out->valueType = info.valueType;
    out->keys = {info.keys.buffer, info.keys.offset, required.keys.size};
    out->values = hasValues ? VksortBufferRange{info.values.buffer, info.values.offset, required.values.size}
                            : VksortBufferRange{};
    out->scratch = {info.scratch.buffer, info.scratch.offset, required.scratch.size};
    out->layout = sorterScratch(sorter, info.maxCount, vksortKeySize(info.keyType), vksortValueSize(info.valueType));
    return VK_SUCCESS;
}

void vksort::describeSet(const VksortBindings_T& bindings, BindingSet set, const SetSides& sides, SetDescriptors* out) {
    const ScratchLayout& l = bindings.layout;
    const VksortBufferRange& s = bindings.scratch;
    const VkDescriptorBufferInfo callerKeys{bindings.keys.buffer, bindings.keys.offset, bindings.keys.size};
    const VkDescriptorBufferInfo scratchKeys{s.buffer, s.offset + l.keysOffset, l.keysBytes};
    const VkDescriptorBufferInfo callerValues{bindings.values.buffer, bindings.values.offset, bindings.values.size};
    const VkDescriptorBufferInfo scratchValues{s.buffer, s.offset + l.valuesOffset, l.valuesBytes};
    struct Direction {
        VkDescriptorBufferInfo keysIn, keysOut, valuesIn, valuesOut;
    };
    const VkDescriptorBufferInfo tables =
        sides.tables != nullptr ? *sides.tables : VkDescriptorBufferInfo{s.buffer, s.offset + l.tablesOffset, l.tablesBytes};
    // Even passes read the caller's buffers and write the scratch copies, odd passes the reverse;
    // the single-workgroup sort may write in place. The launch set is an indirect sort's tile
    // counts': it writes the launch arguments through keys-out, and reads the caller's count
    // through values-in (kBindingCountIn), where it lies when given at record time, or as the
    // copy in the tables.
    const Direction directions[kSetCount] = {
        {callerKeys, scratchKeys, callerValues, scratchValues},                                // kSetForward
        {scratchKeys, callerKeys, scratchValues, callerValues},                                // kSetBackward
        {callerKeys, callerKeys, callerValues, callerValues},                                  // kSetInPlace
        {callerKeys, {s.buffer, s.offset + l.launchOffset, l.launchBytes}, sides.count != nullptr ? *sides.count : tables,
         {}},                                                                                  // kSetLaunch
        {callerKeys, scratchKeys, callerValues, scratchValues},                                // kSetVariant
    };
    const Direction& d = directions[set];
    out->count = 0;
    auto add = [&](uint32_t binding, const VkDescriptorBufferInfo& buffer) {
        out->buffers[out->count] = buffer;
        VkWriteDescriptorSet& w = out->writes[out->count];
        w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = bindingType(binding);
        w.pBufferInfo = &out->buffers[out->count];
        ++out->count;
    };
    add(kBindingKeysIn, d.keysIn);
    add(kBindingKeysOut, d.keysOut);
    if (set != kSetLaunch && bindings.valueType != VKSORT_VALUE_TYPE_NONE) {
        add(kBindingValuesIn, d.valuesIn);
        add(kBindingValuesOut, d.valuesOut);
    } else {
        // The tile counts declare the count binding in every sort (a direct one reads nothing
        // through it): without values, the other sets bind the tables there.
        add(kBindingCountIn, set == kSetLaunch ? d.valuesIn : tables);
    }
    add(kBindingTables, tables);
    // The sorter variant's own bindings (src/variant.hpp), last, and a segmented sorter's segment
    // count (src/pipelines.hpp, setLayoutShape), which takes the place of the variant's binding
    // there where the caller gives one; without, the segmented kernels read nothing through it.
    VariantDescriptor extra[kBindingCount - kBindingPasses];
    const uint32_t extraCount = variantDescriptors(bindings.sorter->variant, set, l, s, extra);
    bool segmentCountBound = false;
    for (uint32_t i = 0; i < extraCount; ++i) {
        const bool segmentCount = extra[i].binding == kBindingSegmentCountIn;
        if (segmentCount && sides.segmentCount != nullptr) continue;
        add(extra[i].binding, extra[i].info);
        segmentCountBound = segmentCountBound || segmentCount;
    }
    if (sides.segmentCount != nullptr) {
        add(kBindingSegmentCountIn, *sides.segmentCount);
    } else if (!segmentCountBound && (bindings.sorter->flags & VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT) != 0) {
        add(kBindingSegmentCountIn, tables);
    }
}

extern "C" VkResult vksortCreateBindings(VksortSorter sorter, const VksortBindingsCreateInfo* pCreateInfo,
                                         VksortBindings* pBindings) {
    VKSORT_REQUIRE(sorter != nullptr && pCreateInfo != nullptr && pBindings != nullptr,
                   "sorter, pCreateInfo and pBindings must not be NULL");
    const VksortBindingsCreateInfo& info = *pCreateInfo;
    VKSORT_REQUIRE(info.pNext == nullptr, "pNext must be NULL");
    *pBindings = VK_NULL_HANDLE;

    VksortBindings_T described;
    VkResult result = describeBuffers(*sorter, info, __func__, &described);
    if (result != VK_SUCCESS) return result;
    VksortBindings bindings = new (std::nothrow) VksortBindings_T(described);
    if (bindings == nullptr) return sorter->fail(VK_ERROR_OUT_OF_HOST_MEMORY, __func__, "out of host memory");
    if (sorter->pushDescriptors) { // (the sorts push their descriptors: nothing to allocate)
        ++sorter->liveBindings;
        *pBindings = bindings;
        return VK_SUCCESS;
    }

    const Functions& fn = sorter->fn;
    const Variant& variant = sorter->variant;
    const uint32_t setCount = variant.setCount;
    const SetLayoutShape shape = setLayoutShape(variant, (sorter->flags & VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT) != 0);
    const VkDescriptorPoolSize poolSizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, setCount * shape.storageBuffers},
                                              {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, setCount * shape.uniformBuffers}};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = setCount;
    poolInfo.poolSizeCount = shape.uniformBuffers != 0 ? 2 : 1;
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
    for (uint32_t set = 0; set < setCount; ++set) {
        SetDescriptors d;
        describeSet(*bindings, BindingSet(set), {}, &d);
        for (uint32_t i = 0; i < d.count; ++i) d.writes[i].dstSet = bindings->sets[set];
        fn.vkUpdateDescriptorSets(sorter->device, d.count, d.writes, 0, nullptr);
    }
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
