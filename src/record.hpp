// SPDX-License-Identifier: MIT
// Recording: replays a program (src/program.hpp) into the caller's command buffer.
#pragma once

#include "objects.hpp"
#include "program.hpp"

namespace vksort {

// Where the optional timestamps of a sort go.
struct TimestampTarget {
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t firstQuery = 0;
};

// The caller's buffers a sort reads besides the bindings, each null where it has none: an
// indirect sort's count, a segmented sort's offsets (pushed at kBindingTables for the tiny
// segments' step and at kBindingCountIn of the launch set for the classify steps) and its segment
// count (pushed at kBindingSegmentCountIn for every step), each aligned down to the storage-buffer
// offset alignment (the kernels read from the word the program pushes).
struct SideBuffers {
    const VkDescriptorBufferInfo* count = nullptr;
    const VkDescriptorBufferInfo* offsets = nullptr;
    const VkDescriptorBufferInfo* segmentCount = nullptr;
};

// Records one step: for a dispatch its pipeline, descriptors (its set bound, or with push
// descriptors pushed unless `pushed` says they already were, which it then records), push
// constants and launch; for the count copy, the copy from `side.count`. Then the step's
// timestamps and the barrier after it.
void recordStep(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings, const Step& step,
                const TimestampTarget& timestamps, const SideBuffers& side = {}, uint32_t* pushed = nullptr);

// Records the whole program: the leading timestamps, then every step.
void recordProgram(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const Program& program, const TimestampTarget& timestamps, const SideBuffers& side = {});

} // namespace vksort
