// SPDX-License-Identifier: MIT
// Pipelines: one descriptor-set layout and pipeline layout shared by every pass, and a compute
// pipeline per kernel variant the sorter serves (src/kernels.hpp), specialized for the device's
// tile configuration.
#pragma once

#include <vksort/vksort.h>

#include <string>

#include "functions.hpp"
#include "kernels.hpp"
#include "tuning.hpp"
#include "variant.hpp"

namespace vksort {

// Index of a key width (32 or 64 bits) and of a value width (none, 32, 64 bits) in the tables.
constexpr uint32_t kKeyWidths = 2;
constexpr uint32_t kValueWidths = 3;

struct Pipelines {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    // [kernel][second][key width][value width]; a kernel that does not vary by a width uses index
    // 0 of it; [1] holds the second pipelines (a kernel's secondPipeline, in a sorter variant that
    // has them). VK_NULL_HANDLE where the sorter does not serve the format.
    VkPipeline pipeline[kKernelCount][2][kKeyWidths][kValueWidths] = {};
    // Its name: the SPIR-V variant's, with the variant's secondSuffix for the second pipelines.
    std::string name[kKernelCount][2][kKeyWidths][kValueWidths];

    VkPipeline get(Kernel kernel, bool second, uint32_t keyWidth, uint32_t valueWidth) const {
        const KernelInfo& k = kernelInfo(kernel);
        return pipeline[uint32_t(kernel)][second ? 1 : 0][k.perKeyWidth ? keyWidth : 0][k.perValueWidth ? valueWidth : 0];
    }
};

struct PipelineOptions {
    TileConfig tile;       // the main tile: the reorders' and every kernel whose row names tile 0
    TileConfig countsTile; // a sort's tile counts: the same tile over their workgroup
    TileConfig singleTiles[kKeyWidths]; // the single-workgroup sort's, per key width (one tile size)
    TileConfig scanTile;   // the scan step (its workgroup size; keys per thread unused)
    TileConfig tinyTile;   // the tiny segments' (a segmented sort)
    TileConfig shortTile;  // the short segments' (a segmented sort)
    TileConfig compareTile; // the compare sort's (its tileSize(): words of keys per chunk)
    CompareConfig compare;  // and its launch (workgroupKeys: a specialization constant)
    TileConfig mergeTiles[kKeyWidths]; // the merge sort's merge step, per key width (its workgroup; keys per thread unused)
    MergeConfig merges[kKeyWidths];    // and its launch (chunkSort: the chunk sort's pipelines are created)
    ScanConfig scan;       // the scan step's shape, a specialization of every kernel that scans
    TuningRow::Reorder reorder;        // the reorder's code choices (specialization constants)
    bool singleWholeTileCopies = false; // the single-workgroup sort's (TuningRow::Single)
    bool subgroupShuffle = false;      // the device has subgroup shuffles: kernels with a twin use it
    Variant variant;                   // its twins, second pipelines and bindings (src/variant.hpp)
    bool segmented = false;            // VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT: the segmented kernels too
    uint32_t requiredSubgroupSize = 0; // 0: the driver's choice
    // The key and value widths the sorter serves; pipelines of the others are not created.
    bool keyWidths[kKeyWidths] = {true, true};
    bool valueWidths[kValueWidths] = {true, true, true};
    bool captureStatistics = false;    // VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
    bool debugUtils = false;           // name each pipeline with vkSetDebugUtilsObjectNameEXT
    bool pushDescriptors = false;      // a push-descriptor set layout (the sorts push, nothing is allocated)
    // Compile on helper threads too (not VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT).
    bool threaded = true;
};

// The bindings of a sorter's descriptor-set layout: every sorter's (kBindingKeysIn to
// kBindingTables), its variant's (src/variant.hpp) and a segmented sorter's segment count
// (kBindingSegmentCountIn), with how many of them are storage and uniform buffers.
struct SetLayoutShape {
    uint32_t bindings[kBindingCount] = {};
    uint32_t count = 0;
    uint32_t storageBuffers = 0;
    uint32_t uniformBuffers = 0;
};
SetLayoutShape setLayoutShape(const Variant& variant, bool segmented);

// Creates every pipeline (with options.threaded, on helper threads as well as the calling one,
// all joined before it returns); on failure destroys what it made and names the failing object.
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
