// Pipelines: one descriptor-set layout and pipeline layout shared by every pass, and a compute
// pipeline per pass and key/value width, specialized for the device's tile configuration.
#pragma once

#include <vksort/vksort.h>

#include <string>

#include "functions.hpp"
#include "plan.hpp"

namespace vksort {

// Index of a key width (32 or 64 bits) and of a value width (none, 32, 64 bits) in the tables.
constexpr uint32_t kKeyWidths = 2;
constexpr uint32_t kValueWidths = 3;

struct Pipelines {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline histogram[kKeyWidths] = {};
    VkPipeline setup = VK_NULL_HANDLE; // indirect sorts: launch arguments from the GPU count
    VkPipeline reorder[kKeyWidths][kValueWidths] = {};
    VkPipeline single[kKeyWidths][kValueWidths] = {}; // the whole sort in one workgroup
    uint32_t subgroupShuffle = 0; // 1: single is the *_shuffle variant
};

struct PipelineOptions {
    TileConfig tile;       // setup, histogram and reorder
    TileConfig singleTile; // the single-workgroup sort
    uint32_t fallbackPeriod = 0;       // testing: forces look-back fallbacks (reorder.comp)
    bool subgroupShuffle = false;      // the device has subgroup shuffles: single ranks in registers
    uint32_t requiredSubgroupSize = 0; // 0: the driver's choice
    // The key and value widths the sorter serves; pipelines of the others are not created.
    bool keyWidths[kKeyWidths] = {true, true};
    bool valueWidths[kValueWidths] = {true, true, true};
    bool captureStatistics = false;    // VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
};

// Creates every pipeline; on failure destroys what it made and names the failing object.
VkResult createPipelines(const Functions& fn, VkDevice device, const VkAllocationCallbacks* allocator,
                         VkPipelineCache cache, const PipelineOptions& options, Pipelines* pipelines,
                         std::string* failure);

// Every pipeline created with its SPIR-V variant's name (static strings), in a fixed order: writes at
// most `capacity` entries to `out` (which may be null when capacity is 0) and returns how many
// pipelines there are.
uint32_t listPipelines(const Pipelines& pipelines, VksortPipelineInfo* out, uint32_t capacity);

void destroyPipelines(const Functions& fn, VkDevice device, const VkAllocationCallbacks* allocator,
                      Pipelines* pipelines);

} // namespace vksort
