// pipeline-stats: the driver's own report on every vksort pipeline (registers, shared memory,
// spills...) through VK_KHR_pipeline_executable_properties, for tuning without a profiler.
// Pipelines are built from the library's embedded SPIR-V with the specialization a sorter on
// this device would use.
#include <vksort/vksort.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../shaders/vksort_config.h"
#include "../../src/spirv.hpp"
#include "vkcontext.hpp"

int main(int argc, char** argv) {
    vkctx::ContextOptions options;
    options.pipelineStatistics = true;
    options.validation = false;
    uint32_t workgroupSize = 0, keysPerThread = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--device") == 0) options.deviceName = argv[i + 1];
        if (std::strcmp(argv[i], "--workgroup-size") == 0) workgroupSize = uint32_t(std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--keys-per-thread") == 0) keysPerThread = uint32_t(std::atoi(argv[i + 1]));
    }
    vkctx::Context ctx(options);
    if (!ctx.pipelineStatisticsEnabled()) {
        std::printf("pipeline-stats: %s does not offer VK_KHR_pipeline_executable_properties\n",
                    ctx.properties().deviceName);
        return 0;
    }
    VksortSorterCreateInfo createInfo = vkctx::sorterCreateInfo(ctx);
    createInfo.flags = 0; // the report below assumes no full-subgroup guarantee (the worst case)
    createInfo.workgroupSize = workgroupSize;
    createInfo.keysPerThread = keysPerThread;
    VksortSorter sorter = VK_NULL_HANDLE;
    VKCTX_CHECK(vksortCreateSorter(&createInfo, &sorter));
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    vksortDestroySorter(sorter);
    // Full subgroups are not requested here, so the layout scan is included (the worst case).
    const uint32_t constants[] = {p.workgroupSize, p.keysPerThread, p.workgroupSize / p.minSubgroupSize, 0};
    std::printf("pipeline-stats: %s | %s | workgroup %u, keys per thread %u, max subgroups %u\n",
                ctx.properties().deviceName, ctx.driverDescription().c_str(), constants[0], constants[1], constants[2]);

    VkDescriptorSetLayoutBinding bindings[vksort::kBindingCount];
    for (uint32_t i = 0; i < vksort::kBindingCount; ++i) {
        bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = vksort::kBindingCount;
    setInfo.pBindings = bindings;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreateDescriptorSetLayout(ctx.device(), &setInfo, nullptr, &setLayout));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, vksort::kPushConstantsSize};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreatePipelineLayout(ctx.device(), &layoutInfo, nullptr, &layout));

    const VkSpecializationMapEntry entries[] = {{vksort::kSpecWorkgroupSize, 0, 4},
                                                {vksort::kSpecKeysPerThread, 4, 4},
                                                {vksort::kSpecMaxSubgroups, 8, 4},
                                                {vksort::kSpecFullSubgroups, 12, 4}};
    VkSpecializationInfo specialization{4, entries, sizeof(constants), constants};
    for (size_t b = 0; b < vksort::kSpirvBlobCount; ++b) {
        const vksort::SpirvBlob& blob = vksort::kSpirvBlobs[b];
        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = blob.wordCount * 4;
        moduleInfo.pCode = blob.words;
        VkShaderModule module = VK_NULL_HANDLE;
        VKCTX_CHECK(vkCreateShaderModule(ctx.device(), &moduleInfo, nullptr, &module));
        VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        info.stage.module = module;
        info.stage.pName = "main";
        info.stage.pSpecializationInfo = &specialization;
        info.layout = layout;
        VkPipeline pipeline = VK_NULL_HANDLE;
        VKCTX_CHECK(vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
        vkDestroyShaderModule(ctx.device(), module, nullptr);

        VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        pipelineInfo.pipeline = pipeline;
        uint32_t executables = 0;
        VKCTX_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device(), &pipelineInfo, &executables, nullptr));
        std::vector<VkPipelineExecutablePropertiesKHR> properties(executables,
                                                                  {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
        VKCTX_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device(), &pipelineInfo, &executables, properties.data()));
        for (uint32_t e = 0; e < executables; ++e) {
            VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            executable.pipeline = pipeline;
            executable.executableIndex = e;
            uint32_t count = 0;
            VKCTX_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device(), &executable, &count, nullptr));
            std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            VKCTX_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device(), &executable, &count, stats.data()));
            std::printf("%-14s %-20s subgroup %u:", blob.name, properties[e].name, properties[e].subgroupSize);
            for (const auto& s : stats) {
                switch (s.format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: std::printf(" %s=%u;", s.name, s.value.b32); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                    std::printf(" %s=%lld;", s.name, (long long)s.value.i64);
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                    std::printf(" %s=%llu;", s.name, (unsigned long long)s.value.u64);
                    break;
                default: std::printf(" %s=%g;", s.name, s.value.f64); break;
                }
            }
            std::printf("\n");
        }
        vkDestroyPipeline(ctx.device(), pipeline, nullptr);
    }
    vkDestroyPipelineLayout(ctx.device(), layout, nullptr);
    vkDestroyDescriptorSetLayout(ctx.device(), setLayout, nullptr);
    return 0;
}
