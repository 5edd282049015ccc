// SPDX-License-Identifier: MIT
// pipeline-stats: the driver's own report on every vksort pipeline (registers, shared memory,
// spills...) through VK_KHR_pipeline_executable_properties, for tuning without a profiler. It
// creates a sorter as sort-test does (no subgroup size control, as the README; the same overrides)
// with VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT and reports the pipelines that sorter really
// built (vksortGetSorterPipelines), each in the shape the sorter dispatches it.
// Exit status: 0 printed, 1 a runtime failure, 2 bad usage, 77 (the automake and ctest
// SKIP_RETURN_CODE convention for "cannot run here") a device without the extension, so that a
// test run reports it as skipped rather than passed.
#include <vksort/vksort.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "toolutil.hpp"
#include "vkcontext.hpp"

namespace {

constexpr int kExitSkipped = 77; // the device cannot report statistics: nothing was checked

void usage() {
    std::printf("usage: pipeline-stats [options]\n"
                "  --list-devices            list Vulkan devices and exit\n"
                "  --device INDEX|NAME       device by index or name substring (default: best present)\n"
                "  --workgroup-size W, --keys-per-thread K   tile overrides, as sort-test's\n"
                "  --skip-constant-digits    the pipelines of a sorter that leaves out passes whose digit\n"
                "                            every key shares (VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT)\n"
                "Prints the driver's statistics of every pipeline of a sorter for all formats (with\n"
                "VK_KHR_pipeline_executable_properties).\n"
                "exit status: 0 printed, 1 a runtime failure, 2 bad usage, 77 skipped: the device does not\n"
                "             offer VK_KHR_pipeline_executable_properties (it is named on standard error)\n");
}

void VKAPI_PTR printMessage(const char* message, void*) { std::fprintf(stderr, "%s\n", message); }

std::string takes(const std::string& option) {
    if (option == "--device") return "a device index or a substring of its name";
    if (option == "--workgroup-size") return "a power of two from 16 to 1024, within the device's limits (0: default)";
    if (option == "--keys-per-thread") return "1 to 32 (0: default)";
    return "";
}

} // namespace

int main(int argc, char** argv) {
    vkctx::ContextOptions options;
    options.pipelineStatistics = true;
    options.validation = false;
    uint32_t workgroupSize = 0, keysPerThread = 0;
    bool skipConstantDigits = false;
    toolutil::Args args(argc, argv, "pipeline-stats", takes);
    while (args.next()) {
        const std::string& a = args.option();
        uint64_t v = 0;
        bool ok = true;
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (a == "--list-devices") {
            vkctx::printDevices();
            return 0;
        } else if (a == "--device") {
            const std::string d = args.value();
            if (toolutil::parseUnsigned(d, 1u << 20, &v)) options.deviceIndex = int(v);
            else options.deviceName = d;
            ok = !d.empty();
        } else if (a == "--skip-constant-digits") {
            skipConstantDigits = true;
        } else if (a == "--workgroup-size") {
            ok = toolutil::parseUnsigned(args.value(), 1024, &v) && (v == 0 || v >= 16) && (v & (v - 1)) == 0;
            workgroupSize = uint32_t(v);
        } else if (a == "--keys-per-thread") {
            ok = toolutil::parseUnsigned(args.value(), 32, &v);
            keysPerThread = uint32_t(v);
        } else {
            std::fprintf(stderr, "pipeline-stats: unknown option %s (pipeline-stats --help lists every option)\n",
                         a.c_str());
            return 2;
        }
        if (!ok) {
            std::fprintf(stderr, "pipeline-stats: bad value for %s: '%s'\n", a.c_str(), args.lastValue().c_str());
            args.printTakes();
            return 2;
        }
    }
    vkctx::Context ctx(options);
    if (!ctx.pipelineStatisticsEnabled()) {
        std::fprintf(stderr, "pipeline-stats: %s does not offer VK_KHR_pipeline_executable_properties: skipped\n",
                     ctx.properties().deviceName);
        return kExitSkipped;
    }
    VksortSorterCreateInfo createInfo = vkctx::sorterCreateInfo(ctx);
    createInfo.flags |= VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT;
    if (skipConstantDigits) createInfo.flags |= VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT;
    createInfo.workgroupSize = workgroupSize;
    createInfo.keysPerThread = keysPerThread;
    createInfo.pfnMessageCallback = printMessage;
    VksortSorter sorter = VK_NULL_HANDLE;
    const VkResult created = vksortCreateSorter(&createInfo, &sorter);
    if (created != VK_SUCCESS) {
        const bool overrides = workgroupSize != 0 || keysPerThread != 0;
        std::fprintf(stderr, "pipeline-stats: vksortCreateSorter failed: %s%s\n", vkctx::resultName(created),
                     overrides && created == VK_ERROR_FEATURE_NOT_PRESENT
                         ? " (the device cannot take the --workgroup-size or --keys-per-thread given)"
                         : "");
        return overrides && created == VK_ERROR_FEATURE_NOT_PRESENT ? 2 : 1;
    }
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    std::printf("pipeline-stats: %s | %s | workgroup %u, keys per thread %u, one dispatch up to %u, subgroup %u%s\n",
                ctx.properties().deviceName, ctx.driverDescription().c_str(), p.workgroupSize, p.keysPerThread,
                p.singleDispatchMaxCount, p.subgroupSize, "");

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
