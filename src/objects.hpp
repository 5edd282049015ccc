// What the public handles point to. Both are immutable after creation (see THREADS in the
// public header): recording only reads them.
#pragma once

#include <vksort/vksort.h>

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
    vksort::TileConfig singleTile; // sorts of up to singleTile.tileSize() keys run in one workgroup
    uint32_t subgroupSize = 0; // what the pipelines run with (required or default)
    vksort::Pipelines pipelines;
    PFN_vksortMessageCallback messageCallback = nullptr;
    void* messageUserData = nullptr;

    const VkAllocationCallbacks* allocator() const { return hasAllocator ? &allocatorCopy : nullptr; }
};

// Descriptor sets for the two directions of the ping-pong: even passes read the caller's
// buffers and write the scratch copies, odd passes the reverse. The single-workgroup sort
// writes its result where the passes would have: in place for an even pass count.
enum BindingSet : uint32_t { kSetForward = 0, kSetBackward = 1, kSetInPlace = 2, kSetCount = 3 };

struct VksortBindings_T {
    uint32_t maxCount = 0;
    VksortKeyType keyType = VKSORT_KEY_TYPE_UINT32;
    VksortValueType valueType = VKSORT_VALUE_TYPE_NONE;
    VksortBufferRange keys{}, values{}, scratch{};
    vksort::ScratchLayout layout;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet sets[kSetCount] = {};
};

namespace vksort {

bool validKeyType(VksortKeyType type);
// Keys are read 16 bytes at a time (histogram.comp), so key ranges start on 16 bytes at least.
constexpr uint64_t kVectorAlignment = 16;
// Alignment of the keys range, of the scratch range and of every region inside it: the device's
// storage-buffer offset alignment, and at least kVectorAlignment.
uint64_t scratchAlignment(const VksortSorter_T& sorter);
bool validValueType(VksortValueType type);
// Index into Pipelines::count / reorder.
inline uint32_t keyWidthIndex(VksortKeyType type) { return vksortKeySize(type) == 8 ? 1u : 0u; }
inline uint32_t valueWidthIndex(VksortValueType type) { return vksortValueSize(type) / 4u; }

} // namespace vksort
