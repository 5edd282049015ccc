// SPDX-License-Identifier: MIT
// What the public handles point to. Both are immutable after creation (see THREADS in the
// public header), except a sorter's count of live bindings: recording only reads them.
#pragma once

#include <vksort/vksort.h>

#include <atomic>
#include <string>

#include "device.hpp"
#include "functions.hpp"
#include "pipelines.hpp"
#include "plan.hpp"

struct VksortSorter_T {
    vksort::Functions fn;
    VkDevice device = VK_NULL_HANDLE;
    bool hasAllocator = false;
    VkAllocationCallbacks allocatorCopy{};
    vksort::DeviceInfo deviceInfo;
    vksort::TileConfig tile;
    // Sorts of up to singleTiles[0].tileSize() keys run in one workgroup, shaped per key width
    // (chooseSingleTileConfig: both widths have that tile size).
    vksort::TileConfig singleTiles[vksort::kKeyWidths];
    vksort::ScanConfig scan;   // which tile counts need a scan step, and its shape
    vksort::CompareConfig compare; // the compare sort (shaders/compare_sort.comp)
    vksort::MergeConfig merges[vksort::kKeyWidths]; // the merge sort's, per key width (shaders/merge_rank.comp)
    uint32_t tinyMaxCount = 0; // a segmented sort's tiny segments: up to this many keys (a workgroup's worth)
    uint32_t shortMaxCount = 0; // its short segments' tile
    uint32_t segmentLaunchThreads = 0; // the most invocations a segmented sort's dispatch launches
    vksort::Variant variant;   // what its creation flags add (src/variant.hpp)
    bool debugUtils = false;   // VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT: labels around what it records
    bool pushDescriptors = false; // VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT: sorts push, bindings hold no sets
    VksortSorterCreateFlags flags = 0; // as created
    uint32_t subgroupSize = 0; // what the pipelines run with (required or default)
    uint32_t keyTypes = 0;     // VKSORT_KEY_TYPE_BIT of each key type served (never 0)
    uint32_t valueTypes = 0;   // VKSORT_VALUE_TYPE_BIT of each value type served (never 0)
    vksort::Pipelines pipelines;
    PFN_vksortMessageCallback messageCallback = nullptr;
    void* messageUserData = nullptr;
    // Bindings created and not yet destroyed: a sorter with any is not destroyed, so no bindings
    // outlive the sorter their tables were planned for (and a later sorter at the same address
    // cannot inherit them). Atomic: bindings of one sorter are created and destroyed on any thread.
    std::atomic<uint32_t> liveBindings{0};

    const VkAllocationCallbacks* allocator() const { return hasAllocator ? &allocatorCopy : nullptr; }
    // Explains an error VkResult through the caller's message callback, and returns it.
    VkResult fail(VkResult result, const char* function, const std::string& message) const;
};

// One set of buffers laid out for a sorter: a VksortBindings object, or (with push descriptors)
// the buffers a sort was given, described on the stack as it records.
struct VksortBindings_T {
    // The sorter whose pipelines and tiles the layout was planned for; only it may use them.
    const VksortSorter_T* sorter = nullptr;
    uint32_t maxCount = 0;
    VksortKeyType keyType = VKSORT_KEY_TYPE_UINT32;
    VksortValueType valueType = VKSORT_VALUE_TYPE_NONE;
    VksortBufferRange keys{}, values{}, scratch{};
    vksort::ScratchLayout layout;
    // Allocated and written once, unless the sorter pushes its descriptors.
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet sets[vksort::kSetCount] = {};
};

namespace vksort {

bool validKeyType(VksortKeyType type);
// Keys are read 16 bytes at a time (tile_counts.comp), so key ranges start on 16 bytes at least.
constexpr uint64_t kVectorAlignment = 16;
// Alignment of the scratch range and of every region inside it: the larger of the device's
// storage- and uniform-buffer offset alignments, and at least kVectorAlignment.
uint64_t scratchAlignment(const VksortSorter_T& sorter);
// The scratch layout of `maxCount` keys and values of these sizes for the sorter's sorts.
ScratchLayout sorterScratch(const VksortSorter_T& sorter, uint32_t maxCount, uint32_t keyBytes, uint32_t valueBytes);
bool validValueType(VksortValueType type);
// Whether the sorter compiled the pipelines of this format (see VksortSorterCreateInfo::keyTypes).
bool serves(const VksortSorter_T& sorter, VksortKeyType keyType, VksortValueType valueType);
// Whether two buffer ranges share a byte (ranges that do not wrap).
inline bool overlap(const VksortBufferRange& a, const VksortBufferRange& b) {
    return a.buffer == b.buffer && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}
// vksortGetMemoryRequirements without its NULL checks; invalid usage is reported as `function`'s.
VkResult memoryRequirements(const VksortSorter_T& sorter, const VksortMemoryRequirementsInfo& info,
                            const char* function, VksortMemoryRequirements* requirements);
// Indices of Pipelines::pipeline (key width, value width).
inline uint32_t keyWidthIndex(VksortKeyType type) { return vksortKeySize(type) == 8 ? 1u : 0u; }
inline uint32_t valueWidthIndex(VksortValueType type) { return vksortValueSize(type) / 4u; }

// Checks a set of buffers as vksortCreateBindings does (invalid usage is reported as
// `function`'s) and fills `out` with them and their scratch layout, without descriptor sets.
VkResult describeBuffers(const VksortSorter_T& sorter, const VksortBindingsCreateInfo& info, const char* function,
                         VksortBindings_T* out);

// The caller's buffers a set binds besides the bindings' (push descriptors: where they lie), each
// null where there is none: `count`, an indirect sort's count or a segmented sort's offsets, at
// the launch set's values-in (kBindingCountIn); `tables`, a segmented sort's offsets, instead of
// the tables; `segmentCount`, a segmented sort's count, at kBindingSegmentCountIn.
struct SetSides {
    const VkDescriptorBufferInfo* count = nullptr;
    const VkDescriptorBufferInfo* tables = nullptr;
    const VkDescriptorBufferInfo* segmentCount = nullptr;
};

// The descriptors of one binding set (src/plan.hpp, BindingSet): what vksortCreateBindings writes
// into that set, or what a sort pushes. Filled in place: the writes point at the buffers beside
// them (their dstSet is left null).
struct SetDescriptors {
    VkDescriptorBufferInfo buffers[kBindingCount];
    VkWriteDescriptorSet writes[kBindingCount];
    uint32_t count = 0;
};
void describeSet(const VksortBindings_T& bindings, BindingSet set, const SetSides& sides, SetDescriptors* out);

// vksortCreateSorter with the tuning row given (null: the device's, tuningFor), so that tests can
// sort with rows made up for them.
VkResult createSorter(const VksortSorterCreateInfo* info, const TuningRow* row, VksortSorter* sorter);
} // namespace vksort
