// SPDX-License-Identifier: MIT
#include "record.hpp"

#include <cstddef>
#include <string>

namespace vksort {

namespace {

// Byte offset of an info word inside the scratch buffer.
VkDeviceSize infoOffset(const VksortBindings_T& bindings, uint32_t word) {
    return bindings.scratch.offset + bindings.layout.tablesOffset + VkDeviceSize(word) * 4u;
}

// Byte offset inside the scratch buffer of a step's launch arguments: a word of the launch
// arguments (an indirect sort's tile counts write them), or of a sorter variant's arguments.
VkDeviceSize argsOffset(const VksortBindings_T& bindings, const Step& step) {
    const VkDeviceSize range = step.variantArgs ? bindings.layout.variantArgsOffset : bindings.layout.launchOffset;
    return bindings.scratch.offset + range + VkDeviceSize(step.argsWord) * 4u;
}

VkPipeline pipelineFor(const VksortSorter_T& sorter, const VksortBindings_T& bindings, const Step& step) {
    return sorter.pipelines.get(step.kernel, step.second, keyWidthIndex(bindings.keyType),
                                valueWidthIndex(bindings.valueType));
}

void recordBarrier(VkCommandBuffer cmd, const Functions& fn, Barrier kind, bool uniformReads) {
    if (kind == Barrier::None) return;
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    VkPipelineStageFlags srcStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkPipelineStageFlags dstStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    if (uniformReads) barrier.dstAccessMask |= VK_ACCESS_UNIFORM_READ_BIT;
    if (kind == Barrier::TransferToCompute) {
        srcStages = VK_PIPELINE_STAGE_TRANSFER_BIT;
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    } else if (kind == Barrier::ComputeAndIndirect) {
        // The later indirect launches read their arguments: the launch arguments, written by an
        // indirect sort's tile counts, or a sorter variant's, written by a step of its second
        // pipeline (src/variant.hpp). No other step writes either.
        barrier.dstAccessMask |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
        dstStages |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
    }
    fn.vkCmdPipelineBarrier(cmd, srcStages, dstStages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// ---- Debug labels (VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT) ------------------------------------------

void beginLabel(VkCommandBuffer cmd, const Functions& fn, const std::string& name) {
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name.c_str();
    fn.vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
}

const char* keyName(VksortKeyType type) {
    static const char* const names[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
    return names[type];
}
const char* valueName(VksortValueType type) {
    static const char* const names[] = {"no", "u32", "u64", "index"};
    return names[type];
}

// What a step does, for the label around it and its neighbours of the same name: the steps before
// the passes (and a segmented sort's classes) by what they are, a pass's scan step and the reorder
// right after it together.
std::string stepLabel(const Program& program, uint32_t i) {
    const Step& s = program.steps[i];
    if (s.kind == StepKind::CopyCount) return "vksort: count copy";
    switch (s.kernel) {
    case Kernel::Single:
    case Kernel::SingleMain:
    case Kernel::ChunkSort:
        return (s.constants.flags & kFlagMapOut) != 0 ? "vksort: one-workgroup sort" : "vksort: chunk sort";
    case Kernel::MergeRank: return "vksort: merge";
    case Kernel::CompareSort:
        return (s.constants.flags & kFlagCopyBack) != 0 ? "vksort: result copy" : "vksort: compare sort";
    case Kernel::TileCounts:
    case Kernel::SegmentCounts:
    case Kernel::SegmentListCounts: return "vksort: tile counts";
    case Kernel::SegmentTiny: return "vksort: tiny segments";
    case Kernel::SegmentClassify: return "vksort: segment classes";
    case Kernel::SegmentShort: return "vksort: short segments";
    case Kernel::SegmentMid: return "vksort: mid-sized segments";
    case Kernel::SegmentSingle: return "vksort: small segments";
    case Kernel::Scan:
    case Kernel::Reorder:
    case Kernel::SegmentReorder:
    case Kernel::SegmentListReorder: break;
    }
    const bool scan = s.kernel == Kernel::Scan || (i > 0 && program.steps[i - 1].kernel == Kernel::Scan);
    return "vksort: pass " + std::to_string(s.pass) + (scan ? " (scan, reorder)" : " (reorder)");
}

void writeTimestamps(VkCommandBuffer cmd, const Functions& fn, const TimestampTarget& target, uint32_t first,
                     uint32_t count) {
    if (target.pool == VK_NULL_HANDLE) return;
    for (uint32_t q = first; q < first + count; ++q) {
        fn.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, target.pool, target.firstQuery + q);
    }
}

} // namespace

void recordStep(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings, const Step& step,
                const TimestampTarget& timestamps, const SideBuffers& side, uint32_t* pushed) {
    const Functions& fn = sorter.fn;
    const VkDescriptorBufferInfo* countSource = side.count;
    // What the step's set binds besides the bindings: the launch set reads an indirect sort's
    // count, or a segmented sort's offsets (its classify step), at the count binding; the tiny
    // segments' step reads the offsets at the tables' binding.
    const VkDescriptorBufferInfo* countBinding = step.set == kSetLaunch && countSource == nullptr ? side.offsets : countSource;
    const VkDescriptorBufferInfo* tablesBinding = step.offsetsAtTables ? side.offsets : nullptr;
    const uint32_t setKey = step.set + (step.offsetsAtTables ? kSetCount : 0u);
    if (step.kind == StepKind::CopyCount) {
        VkBufferCopy region{countSource->offset, infoOffset(bindings, kInfoRequested), 4};
        fn.vkCmdCopyBuffer(cmd, countSource->buffer, bindings.scratch.buffer, 1, &region);
    } else {
        fn.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineFor(sorter, bindings, step));
        if (!sorter.pushDescriptors) {
            fn.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.layout, 0, 1,
                                       &bindings.sets[step.set], 0, nullptr);
        } else if (pushed == nullptr || *pushed != setKey) {
            // Pushed descriptors stay bound across the pipelines of one layout: push a set when it
            // changes. The launch set reads an indirect count where it lies (aligned down to the
            // storage-buffer offset alignment; the tile counts read word countWord of the range).
            auto alignedDown = [&](const VkDescriptorBufferInfo& b) -> VkDescriptorBufferInfo {
                const VkDeviceSize misalignment = b.offset % sorter.deviceInfo.facts.minStorageBufferOffsetAlignment;
                return {b.buffer, b.offset - misalignment, misalignment + b.range};
            };
            VkDescriptorBufferInfo count{}, offsets{}, segmentCount{};
            SetSides sides;
            if (countBinding != nullptr) sides.count = &(count = alignedDown(*countBinding));
            if (tablesBinding != nullptr) sides.tables = &(offsets = alignedDown(*tablesBinding));
            if (side.segmentCount != nullptr) sides.segmentCount = &(segmentCount = alignedDown(*side.segmentCount));
            SetDescriptors d;
            describeSet(bindings, step.set, sides, &d);
            fn.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, sorter.pipelines.layout, 0, d.count, d.writes);
            if (pushed != nullptr) *pushed = setKey;
        }
        // The segmented sort's fields, last, only for its kernels: fewer bytes per dispatch.
        const uint32_t pushBytes = kernelInfo(step.kernel).segmented ? uint32_t(sizeof(step.constants))
                                                                     : uint32_t(offsetof(VksortPushConstants, segmentCount));
        fn.vkCmdPushConstants(cmd, sorter.pipelines.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, &step.constants);
        if (step.indirect) {
            fn.vkCmdDispatchIndirect(cmd, bindings.scratch.buffer, argsOffset(bindings, step));
        } else {
            fn.vkCmdDispatch(cmd, step.grid.x, step.grid.y, 1);
        }
    }
    writeTimestamps(cmd, fn, timestamps, step.firstTimestamp, step.timestampCount);
    recordBarrier(cmd, fn, step.barrier, step.second);
}

void recordProgram(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const Program& program, const TimestampTarget& timestamps, const SideBuffers& side) {
    const Functions& fn = sorter.fn;
    if (sorter.debugUtils) {
        std::string name = std::string("vksort: sort of ") + keyName(bindings.keyType) + " keys";
        if (bindings.valueType != VKSORT_VALUE_TYPE_NONE) name += std::string(" with ") + valueName(bindings.valueType) + " values";
        beginLabel(cmd, fn, name);
    }
    writeTimestamps(cmd, fn, timestamps, 0, program.leadingTimestamps);
    std::string open; // the label of the group of steps being recorded
    uint32_t pushed = ~0u; // the set (and whether with offsets) whose descriptors were pushed last (none yet)
    for (uint32_t i = 0; i < program.stepCount; ++i) {
        if (sorter.debugUtils) {
            std::string label = stepLabel(program, i);
            if (label != open) {
                if (!open.empty()) fn.vkCmdEndDebugUtilsLabelEXT(cmd);
                beginLabel(cmd, fn, label);
                open = label;
            }
        }
        recordStep(cmd, sorter, bindings, program.steps[i], timestamps, side, &pushed);
    }
    if (sorter.debugUtils) {
        if (!open.empty()) fn.vkCmdEndDebugUtilsLabelEXT(cmd);
        fn.vkCmdEndDebugUtilsLabelEXT(cmd);
    }
}

} // namespace vksort
