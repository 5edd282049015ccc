// SPDX-License-Identifier: MIT
// What the driver launches when a pipeline requires a subgroup size and full subgroups, probed
// with a plain shader (no vksort in it), and vksort sorting correctly under the same request.
//
// Why it is kept: lavapipe of Debian 12 (Mesa 22.3.6) at LP_NATIVE_VECTOR_WIDTH=1024 reports
// subgroup size 32 and, asked for 32-lane full subgroups, launches 16-lane ones. vksort once sized
// its shared arrays from the promise and returned the input unsorted there. At 2048 and 4096 it
// reports 64 and 128 and still launches 16 lanes (observed: 16 subgroups of 16 lanes in a
// 256-invocation workgroup, gl_SubgroupSize 64 or 128): its compute shaders are at most 16 lanes
// wide whatever the vector width (llvmpipe's lp_state_cs.c, MIN2(lp_native_vector_width / 32, 16)),
// so ctest's sg32, sg64 and sg128 runs all execute 16-lane subgroups under a larger reported size.
// The test asserts that of lavapipe, so a Mesa that changes it fails here and the labels' meaning
// is re-checked; the probe's report is printed on every run (ctest --output-on-failure, or the test
// binary with -s).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "integration_spirv.hpp" // tests/shaders/, embedded (tests/CMakeLists.txt)
#include "support.hpp"

namespace {

struct Report {
    uint32_t numSubgroups, subgroupSize, minLanes, maxLanes, maxSubgroupId;
};

const vktest::SpirvBlob& probeBlob() {
    for (size_t i = 0; i < vktest::kSpirvBlobCount; ++i) {
        if (std::strcmp(vktest::kSpirvBlobs[i].name, "probe_subgroups") == 0) return vktest::kSpirvBlobs[i];
    }
    FAIL("no embedded probe_subgroups shader");
    return vktest::kSpirvBlobs[0];
}

// One workgroup of `workgroupSize` invocations, created with requiredSubgroupSize `size` and
// REQUIRE_FULL_SUBGROUPS, reports what it got.
Report probe(vkctx::Context& ctx, uint32_t workgroupSize, uint32_t size) {
    VkDevice device = ctx.device();
    vkctx::Buffer buffer = ctx.createBuffer(sizeof(Report), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    Report init{0, 0, ~0u, 0, 0};
    std::memcpy(buffer.mapped, &init, sizeof(init));

    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = 1;
    setInfo.pBindings = &binding;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    REQUIRE(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout) == VK_SUCCESS);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    REQUIRE(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout) == VK_SUCCESS);

    const vktest::SpirvBlob& blob = probeBlob();
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = blob.wordCount * 4;
    moduleInfo.pCode = blob.words;
    VkShaderModule module = VK_NULL_HANDLE;
    REQUIRE(vkCreateShaderModule(device, &moduleInfo, nullptr, &module) == VK_SUCCESS);
    VkSpecializationMapEntry entry{0, 0, 4};
    VkSpecializationInfo specialization{1, &entry, 4, &workgroupSize};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    required.requiredSubgroupSize = size;
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.pNext = &required;
    info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    REQUIRE(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
    vkDestroyShaderModule(device, module, nullptr);

    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    REQUIRE(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool) == VK_SUCCESS);
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &setLayout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    REQUIRE(vkAllocateDescriptorSets(device, &allocate, &set) == VK_SUCCESS);
    VkDescriptorBufferInfo bufferInfo{buffer.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &bufferInfo;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);

    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vktest::hostToCompute(cmd);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
        const uint32_t unused = 0;
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &unused);
        vkCmdDispatch(cmd, 1, 1, 1);
        vktest::computeToHost(cmd);
    });
    Report report{};
    std::memcpy(&report, buffer.mapped, sizeof(report));
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    ctx.destroyBuffer(buffer);
    return report;
}

} // namespace

TEST_CASE("subgroups: what a required size really launches, and vksort sorting under it", "[subgroups]") {
    vkctx::Context& ctx = vktest::context();
    VkPhysicalDeviceSubgroupSizeControlProperties control{};
    if (!vktest::requiredSubgroupSizes(ctx, &control)) return; // nothing to probe
    for (uint32_t size = control.minSubgroupSize; size <= control.maxSubgroupSize; size *= 2) {
        const uint32_t workgroupSize = std::min(64u * size, std::min(256u, control.maxComputeWorkgroupSubgroups * size));
        if (workgroupSize < size) continue;
        const Report r = probe(ctx, workgroupSize, size);
        const bool honoured = r.numSubgroups == workgroupSize / size && r.minLanes == size && r.maxLanes == size;
        WARN(ctx.driverDescription() << ": required " << size << "-lane full subgroups in a workgroup of "
                                     << workgroupSize << ": got " << r.numSubgroups << " subgroups of " << r.minLanes
                                     << " to " << r.maxLanes << " lanes, gl_SubgroupSize " << r.subgroupSize
                                     << (honoured ? " (as required)" : " (NOT as required)"));
        if (ctx.driverId() == VK_DRIVER_ID_MESA_LLVMPIPE) {
            const uint32_t lanes = std::min(size, 16u);
            CHECK(r.subgroupSize == size);
            CHECK(r.minLanes == lanes);
            CHECK(r.maxLanes == lanes);
            CHECK(r.numSubgroups == workgroupSize / lanes);
        }
        // The probe itself must be sound, whatever the driver does: every invocation counted once.
        CHECK(r.maxSubgroupId + 1 == r.numSubgroups);
        CHECK(r.minLanes >= 1);
        CHECK(r.maxLanes * r.numSubgroups >= workgroupSize);
        CHECK(r.minLanes * r.numSubgroups <= workgroupSize);

        // vksort under the same request: sorted, honoured or not. Keys with values, a count of
        // many tiles (inline scans of many tiles), and the single-workgroup path; then, with tiles of one
        // key per invocation, more tiles than one scan range takes, so that the scan step runs by
        // ranges in workgroups sized for the promised subgroups (on lavapipe 256 invocations for
        // 18 ranges: the last workgroup scans their 288 totals in two rounds).
        vktest::SorterOptions options;
        options.requiredSubgroupSize = size;
        for (uint32_t count : {17u, 3000u, 100003u}) {
            vktest::Case c;
            c.count = count;
            c.value = VKSORT_VALUE_TYPE_UINT32;
            c.sorter = options;
            c.seed = count + size;
            vktest::sortAndCheck(c);
        }
        vktest::SorterOptions ranged = options;
        ranged.workgroupSize = std::max(size, 16u);
        ranged.keysPerThread = 1;
        vktest::Case c;
        c.count = 4400 * ranged.workgroupSize + 7; // 4401 tiles: over the tuning row's one-range limit (3072)
        c.value = VKSORT_VALUE_TYPE_UINT32;
        c.sorter = ranged;
        c.seed = 77 + size;
        vktest::sortAndCheck(c);
    }
    vktest::requireCleanValidation();
}
