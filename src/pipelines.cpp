// SPDX-License-Identifier: MIT
#include "pipelines.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include "spirv.hpp"

namespace vksort {

const SpirvBlob* findSpirv(const char* name) {
    for (size_t i = 0; i < kSpirvBlobCount; ++i) {
        if (std::strcmp(kSpirvBlobs[i].name, name) == 0) return &kSpirvBlobs[i];
    }
    return nullptr;
}

namespace {

// The specialization constants a pipeline gets besides its tile's and the scan's: whether it is
// a sorter variant's second pipeline, and the tuning row's code choices for its kernel and format
// (constants its module does not declare are ignored).
struct KernelChoices {
    bool second = false;
    bool wholeTileCopies = false;
    bool earlyValues = false;
    bool lastPassEarly = false;
    uint32_t inlineScanLoads = 1;
};

KernelChoices kernelChoices(const PipelineOptions& options, KernelTile tile, uint32_t keyWidth, uint32_t valueWidth) {
    KernelChoices c;
    const uint32_t format = formatBit(keyWidth, valueWidth);
    c.wholeTileCopies = tile == KernelTile::Single || tile == KernelTile::SingleMain ? options.singleWholeTileCopies
                                                                                     : options.reorder.wholeTileCopies;
    c.earlyValues = (options.reorder.earlyValues & format) != 0;
    c.lastPassEarly = (options.reorder.lastPassEarly & format) != 0;
    c.inlineScanLoads = std::max(1u, options.reorder.inlineScanLoads);
    return c;
}

struct Creator {
    const Functions& fn;
    VkDevice device;
    const VkAllocationCallbacks* allocator;
    VkPipelineCache cache;
    const PipelineOptions& options;
    VkPipelineLayout layout;

    // Compiles one variant (`name`: the pipeline's, as listed); on failure names the call that
    // failed in *failure. Safe to call from several threads at once (Vulkan lets pipelines of one
    // device be created concurrently).
    VkResult create(const SpirvBlob& blob, const char* name, const TileConfig& tile, const KernelChoices& choices,
                    VkPipeline* pipeline, std::string* failure) const {
        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = blob.wordCount * sizeof(uint32_t);
        moduleInfo.pCode = blob.words;
        VkShaderModule module = VK_NULL_HANDLE;
        VkResult result = fn.vkCreateShaderModule(device, &moduleInfo, allocator, &module);
        if (result != VK_SUCCESS) {
            *failure = std::string("vkCreateShaderModule(") + name + ")";
            return result;
        }

        // (A GLSL bool specialization constant is 4 bytes, VkBool32-sized.)
        // Every kernel gets every constant; a module that declares fewer ignores the rest.
        const uint32_t constants[] = {tile.workgroupSize,
                                      tile.keysPerThread,
                                      tile.maxSubgroups,
                                      tile.exchangeBuffers,
                                      options.scan.oneRangeMaxTiles,
                                      options.scan.rangeMinTiles,
                                      options.scan.itemsPerThread,
                                      choices.second ? 1u : 0u,
                                      choices.wholeTileCopies ? 1u : 0u,
                                      choices.earlyValues ? 1u : 0u,
                                      choices.lastPassEarly ? 1u : 0u,
                                      choices.inlineScanLoads,
                                      options.compare.workgroupKeys,
                                      tile.keyLanes,
                                      tile.wideKeyLanes,
                                      tile.windowRoom};
        const VkSpecializationMapEntry entries[] = {
            {kSpecWorkgroupSize, 0, 4},       {kSpecKeysPerThread, 4, 4},         {kSpecMaxSubgroups, 8, 4},
            {kSpecExchangeBuffers, 12, 4},    {kSpecScanOneRangeMaxTiles, 16, 4}, {kSpecScanRangeMinTiles, 20, 4},
            {kSpecScanItemsPerThread, 24, 4}, {kSpecVariantPipeline, 28, 4},      {kSpecWholeTileCopies, 32, 4},
            {kSpecEarlyValues, 36, 4},        {kSpecLastPassEarly, 40, 4},        {kSpecInlineScanLoads, 44, 4},
            {kSpecCompareWorkgroupKeys, 48, 4}, {kSpecMergeKeyLanes, 52, 4},        {kSpecMergeWideKeyLanes, 56, 4},
            {kSpecMergeWindowRoom, 60, 4},
        };
        static_assert(sizeof(entries) / sizeof(entries[0]) == sizeof(constants) / sizeof(constants[0]),
                      "a value per constant");
        VkSpecializationInfo specialization{uint32_t(sizeof(entries) / sizeof(entries[0])), entries, sizeof(constants),
                                            constants};

        VkPipelineShaderStageRequiredSubgroupSizeCreateInfo requiredSize{
            VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
        requiredSize.requiredSubgroupSize = options.requiredSubgroupSize;

        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        if (options.captureStatistics) info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        info.stage.pNext = options.requiredSubgroupSize != 0 ? &requiredSize : nullptr;
        info.stage.flags = tile.fullSubgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.stage.pSpecializationInfo = &specialization;
        info.layout = layout;
        result = fn.vkCreateComputePipelines(device, cache, 1, &info, allocator, pipeline);
        fn.vkDestroyShaderModule(device, module, allocator);
        if (result != VK_SUCCESS) *failure = std::string("vkCreateComputePipelines(") + name + ")";
        return result;
    }
};

} // namespace

SetLayoutShape setLayoutShape(const Variant& variant, bool segmented) {
    SetLayoutShape shape;
    auto add = [&](uint32_t binding) {
        shape.bindings[shape.count++] = binding;
        (bindingType(binding) == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? shape.uniformBuffers : shape.storageBuffers) += 1;
    };
    for (uint32_t i = 0; i < variant.bindingCount; ++i) add(i);
    if (segmented && variant.bindingCount <= kBindingSegmentCountIn) add(kBindingSegmentCountIn);
    return shape;
}

VkResult createPipelines(const Functions& fn, VkDevice device, const VkAllocationCallbacks* allocator,
                         VkPipelineCache cache, const PipelineOptions& options, Pipelines* pipelines,
                         std::string* failure) {
    Pipelines p;
    const SetLayoutShape shape = setLayoutShape(options.variant, options.segmented);
    VkDescriptorSetLayoutBinding bindings[kBindingCount];
    for (uint32_t i = 0; i < shape.count; ++i) {
        bindings[i] = {shape.bindings[i], bindingType(shape.bindings[i]), 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = shape.count;
    setInfo.pBindings = bindings;
    if (options.pushDescriptors) setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    VkResult result = fn.vkCreateDescriptorSetLayout(device, &setInfo, allocator, &p.setLayout);
    if (result != VK_SUCCESS) {
        *failure = "vkCreateDescriptorSetLayout";
        return result;
    }
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantsSize};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &p.setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    result = fn.vkCreatePipelineLayout(device, &layoutInfo, allocator, &p.layout);
    if (result != VK_SUCCESS) {
        *failure = "vkCreatePipelineLayout";
        destroyPipelines(fn, device, allocator, &p);
        return result;
    }

    // The variants the served formats need, in the table's order.
    struct Job {
        const SpirvBlob* blob;
        const char* name; // the pipeline's (Pipelines::name)
        const TileConfig* tile;
        KernelChoices choices;
        VkPipeline* pipeline;
        VkResult result = VK_SUCCESS;
        std::string failure;
    };
    std::vector<Job> jobs;
    for (uint32_t kernel = 0; kernel < kKernelCount; ++kernel) {
        const KernelInfo& info = kKernels[kernel];
        if (info.segmented && !options.segmented) continue;
        for (uint32_t k = 0; k < (info.perKeyWidth ? kKeyWidths : 1); ++k) {
            if (info.perKeyWidth && !options.keyWidths[k]) continue;
            if (Kernel(kernel) == Kernel::ChunkSort && !options.merges[k].chunkSort) continue;
            const TileConfig& tile = info.tile == KernelTile::Single ? options.singleTiles[k]
                                     : info.tile == KernelTile::Scan ? options.scanTile
                                     : info.tile == KernelTile::Tiny ? options.tinyTile
                                     : info.tile == KernelTile::Short ? options.shortTile
                                     : info.tile == KernelTile::Compare ? options.compareTile
                                     : info.tile == KernelTile::Merge ? options.mergeTiles[k]
                                     : info.tile == KernelTile::Counts ? options.countsTile
                                                                      : options.tile;
            for (uint32_t v = 0; v < (info.perValueWidth ? kValueWidths : 1); ++v) {
                if (info.perValueWidth && !options.valueWidths[v]) continue;
                const std::string name = variantName(Kernel(kernel), k, v, options.subgroupShuffle, options.variant.twinSuffix);
                const SpirvBlob* blob = findSpirv(name.c_str());
                if (blob == nullptr) {
                    *failure = "embedded SPIR-V " + name + " is missing";
                    destroyPipelines(fn, device, allocator, &p);
                    return VK_ERROR_INITIALIZATION_FAILED;
                }
                const bool second = options.variant.secondSuffix != nullptr && info.secondPipeline;
                for (uint32_t d = 0; d < (second ? 2u : 1u); ++d) {
                    p.name[kernel][d][k][v] = d == 0 ? name : name + options.variant.secondSuffix;
                    KernelChoices choices = kernelChoices(options, info.tile, k, v);
                    choices.second = d == 1;
                    jobs.push_back(Job{blob, p.name[kernel][d][k][v].c_str(), &tile, choices, &p.pipeline[kernel][d][k][v]});
                }
            }
        }
    }

    // The driver's compilation is most of the time: each pipeline is compiled on its own, the
    // calling thread and up to one helper thread per further pipeline taking the next one left,
    // so that creation takes about as long as the slowest pipeline rather than the sum of all.
    // A helper that cannot be started leaves its share to the others.
    Creator creator{fn, device, allocator, cache, options, p.layout};
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < jobs.size(); i = next++) {
            Job& job = jobs[i];
            job.result = creator.create(*job.blob, job.name, *job.tile, job.choices, job.pipeline, &job.failure);
        }
    };
    std::vector<std::thread> helpers;
    if (options.threaded && jobs.size() > 1) {
        const size_t hardware = std::max(1u, std::thread::hardware_concurrency());
        const size_t wanted = std::min(jobs.size(), hardware) - 1;
        try {
            helpers.reserve(wanted);
        } catch (const std::exception&) {
        }
        for (size_t t = 0; t < wanted; ++t) {
            try {
                helpers.emplace_back(work);
            } catch (const std::exception&) {
                break;
            }
        }
    }
    work();
    for (std::thread& helper : helpers) helper.join();
    for (const Job& job : jobs) {
        if (job.result != VK_SUCCESS) {
            *failure = job.failure;
            destroyPipelines(fn, device, allocator, &p);
            return job.result;
        }
    }
    // Names for debuggers and profilers: "vksort " and the name vksortGetSorterPipelines gives.
    if (options.debugUtils) {
        for (const Job& job : jobs) {
            const std::string name = std::string("vksort ") + job.name;
            VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
            info.objectType = VK_OBJECT_TYPE_PIPELINE;
            info.objectHandle = (uint64_t)(*job.pipeline); // (a pointer or a uint64_t, by platform)
            info.pObjectName = name.c_str();
            VkResult named = fn.vkSetDebugUtilsObjectNameEXT(device, &info);
            if (named != VK_SUCCESS) {
                *failure = "vkSetDebugUtilsObjectNameEXT(" + std::string(job.name) + ")";
                destroyPipelines(fn, device, allocator, &p);
                return named;
            }
        }
    }
    *pipelines = p;
    return VK_SUCCESS;
}

uint32_t listPipelines(const Pipelines& p, VksortPipelineInfo* out, uint32_t capacity) {
    uint32_t n = 0;
    for (uint32_t kernel = 0; kernel < kKernelCount; ++kernel) {
        for (uint32_t k = 0; k < kKeyWidths; ++k) {
            for (uint32_t v = 0; v < kValueWidths; ++v) {
                for (uint32_t d = 0; d < 2; ++d) {
                    if (p.pipeline[kernel][d][k][v] == VK_NULL_HANDLE) continue; // not created: not served
                    if (n < capacity) out[n] = {p.name[kernel][d][k][v].c_str(), p.pipeline[kernel][d][k][v]};
                    ++n;
                }
            }
        }
    }
    return n;
}

void destroyPipelines(const Functions& fn, VkDevice device, const VkAllocationCallbacks* allocator,
                      Pipelines* p) {
    auto destroy = [&](VkPipeline& pipeline) {
        if (pipeline != VK_NULL_HANDLE) fn.vkDestroyPipeline(device, pipeline, allocator);
        pipeline = VK_NULL_HANDLE;
    };
    for (auto& byTwin : p->pipeline) {
        for (auto& byKey : byTwin) {
            for (auto& byValue : byKey) {
                for (VkPipeline& pipeline : byValue) destroy(pipeline);
            }
        }
    }
    if (p->layout != VK_NULL_HANDLE) fn.vkDestroyPipelineLayout(device, p->layout, allocator);
    if (p->setLayout != VK_NULL_HANDLE) fn.vkDestroyDescriptorSetLayout(device, p->setLayout, allocator);
    p->layout = VK_NULL_HANDLE;
    p->setLayout = VK_NULL_HANDLE;
}

} // namespace vksort
