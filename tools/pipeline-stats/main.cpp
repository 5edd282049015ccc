// pipeline-stats: the driver's own report on every vksort pipeline (registers, shared memory,
// spills...) through VK_KHR_pipeline_executable_properties, for tuning without a profiler. It
// creates a sorter as sort-test does (subgroup size control when offered, the same overrides)
// with VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT and reports the pipelines that sorter really
// built (vksortGetSorterPipelines), each in the shape the sorter dispatches it.
#include <vksort/vksort.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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
    createInfo.flags |= VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT;
    createInfo.workgroupSize = workgroupSize;
    createInfo.keysPerThread = keysPerThread;
    VksortSorter sorter = VK_NULL_HANDLE;
    VKCTX_CHECK(vksortCreateSorter(&createInfo, &sorter));
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    std::printf("pipeline-stats: %s | %s | workgroup %u, keys per thread %u, one dispatch up to %u, subgroup %u%s\n",
                ctx.properties().deviceName, ctx.driverDescription().c_str(), p.workgroupSize, p.keysPerThread,
                p.singleDispatchMaxCount, p.subgroupSize, ctx.subgroupSizeControlEnabled() ? " (full subgroups)" : "");

    uint32_t pipelineCount = 0;
    VKCTX_CHECK(vksortGetSorterPipelines(sorter, &pipelineCount, nullptr));
    std::vector<VksortPipelineInfo> pipelines(pipelineCount);
    VKCTX_CHECK(vksortGetSorterPipelines(sorter, &pipelineCount, pipelines.data()));
    for (const VksortPipelineInfo& pipeline : pipelines) {
        VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        pipelineInfo.pipeline = pipeline.pipeline;
        uint32_t executables = 0;
        VKCTX_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device(), &pipelineInfo, &executables, nullptr));
        std::vector<VkPipelineExecutablePropertiesKHR> properties(executables,
                                                                  {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
        VKCTX_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device(), &pipelineInfo, &executables, properties.data()));
        for (uint32_t e = 0; e < executables; ++e) {
            VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            executable.pipeline = pipeline.pipeline;
            executable.executableIndex = e;
            uint32_t count = 0;
            VKCTX_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device(), &executable, &count, nullptr));
            std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
            VKCTX_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device(), &executable, &count, stats.data()));
            std::printf("%-14s %-20s subgroup %u:", pipeline.name, properties[e].name, properties[e].subgroupSize);
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
    }
    vksortDestroySorter(sorter);
    return 0;
}
