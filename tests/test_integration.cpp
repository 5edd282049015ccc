// SPDX-License-Identifier: MIT
// vksort inside a renderer's command buffers: counts produced on the GPU and the documented
// barrier contract between a producer and a consumer. Everything runs under synchronization
// validation. (Recording from several threads: test_repeat.cpp; timestamps: test_sort.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "integration_spirv.hpp" // tests/shaders/, embedded (tests/CMakeLists.txt)
#include "support.hpp"

namespace {

// One of the test shaders in tests/shaders/, over `buffers` and a 4-byte push constant.
struct Kernel {
    vkctx::ComputeKernel kernel;

    static const vktest::SpirvBlob& blob(const char* name) {
        for (size_t i = 0; i < vktest::kSpirvBlobCount; ++i) {
            if (std::strcmp(vktest::kSpirvBlobs[i].name, name) == 0) return vktest::kSpirvBlobs[i];
        }
        FAIL("no embedded shader " << name);
        return vktest::kSpirvBlobs[0];
    }
    Kernel(vkctx::Context& ctx, const char* name, const std::vector<VkBuffer>& buffers)
        : kernel(ctx, blob(name).words, blob(name).wordCount, buffers, 4) {}
    // Rebinds everything it needs (the sort may have left its own state bound) and dispatches.
    void record(VkCommandBuffer cmd, uint32_t constant, uint32_t groups) const { kernel.record(cmd, &constant, groups); }
};

// Keys, values and scratch for `capacity` u32 pairs in host-visible memory.
struct PairBuffers {
    vkctx::Context& ctx;
    VksortSorter sorter;
    vkctx::Buffer keys, values, scratch;
    VksortBindings bindings = VK_NULL_HANDLE;

    PairBuffers(vkctx::Context& context, VksortSorter s, uint32_t capacity, VksortValueType valueType)
        : ctx(context), sorter(s) {
        VksortMemoryRequirementsInfo info{nullptr, capacity, VKSORT_KEY_TYPE_UINT32, valueType};
        VksortMemoryRequirements r{};
        REQUIRE(vksortGetMemoryRequirements(sorter, &info, &r) == VK_SUCCESS);
        keys = ctx.createBuffer(r.keys.size, r.keys.usage, true);
        values = ctx.createBuffer(r.values.size, r.values.usage, true);
        scratch = ctx.createBuffer(r.scratch.size, r.scratch.usage, true);
        VksortBindingsCreateInfo b{nullptr, capacity, VKSORT_KEY_TYPE_UINT32, valueType,
                                   {keys.buffer, 0, r.keys.size}, {values.buffer, 0, r.values.size},
                                   {scratch.buffer, 0, r.scratch.size}};
        REQUIRE(vksortCreateBindings(sorter, &b, &bindings) == VK_SUCCESS);
    }
    ~PairBuffers() {
        vksortDestroyBindings(sorter, bindings);
        ctx.destroyBuffer(keys);
        ctx.destroyBuffer(values);
        ctx.destroyBuffer(scratch);
    }
    uint32_t* key() const { return static_cast<uint32_t*>(keys.mapped); }
    uint32_t* value() const { return static_cast<uint32_t*>(values.mapped); }
};

} // namespace

TEST_CASE("indirect counts written by a compute shader in the same command buffer", "[indirect]") {
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    const uint32_t capacity = 3 * p.tileSize + 17;
    PairBuffers buffers(ctx, sorter, capacity, VKSORT_VALUE_TYPE_INDEX);
    vkctx::Buffer count =
        ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    Kernel writeCount(ctx, "write_count", {count.buffer});

    // 0, 1, the single-workgroup limit and one past it, the capacity, and counts above it (clamped).
    for (uint32_t requested : {0u, 1u, p.singleDispatchMaxCount, p.singleDispatchMaxCount + 1, capacity - 1,
                               capacity, capacity + 1, 0xFFFFFFFFu}) {
        INFO("requested count " << requested << ", capacity " << capacity);
        std::vector<uint32_t> input(capacity);
        for (uint32_t i = 0; i < capacity; ++i) input[i] = (i * 2654435761u) >> 7;
        std::memcpy(buffers.key(), input.data(), capacity * 4u);
        std::memset(buffers.value(), 0xEE, capacity * 4u);
        VksortSortInfo info{};
        info.bindings = buffers.bindings;
        info.count = 12345; // ignored by the indirect call
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            writeCount.record(cmd, requested, 1);
            // The documented barrier before an indirect sort: the count to the transfer that
            // reads it, the keys (written by the host here) to compute.
            vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            REQUIRE(vksortCmdSortIndirect(cmd, sorter, &info, count.buffer, 0, nullptr) == VK_SUCCESS);
            vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        });
        uint32_t sorted = std::min(requested, capacity);
        std::vector<uint32_t> order(sorted);
        for (uint32_t i = 0; i < sorted; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return input[a] < input[b]; });
        for (uint32_t i = 0; i < sorted; ++i) {
            REQUIRE(buffers.key()[i] == input[order[i]]);
            REQUIRE(buffers.value()[i] == order[i]);
        }
        // Past the (clamped) count nothing was touched: 8 passes leave the result in place.
        for (uint32_t i = sorted; i < capacity; ++i) {
            REQUIRE(buffers.key()[i] == input[i]);
            REQUIRE(buffers.value()[i] == 0xEEEEEEEEu);
        }
        vktest::requireCleanValidation(ctx);
    }
    ctx.destroyBuffer(count);
}

TEST_CASE("producer, sort and consumer with exactly the documented barriers", "[contract]") {
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    for (uint32_t count : {p.singleDispatchMaxCount / 2, 5 * p.tileSize + 3}) {
        INFO("count " << count);
        PairBuffers buffers(ctx, sorter, count, VKSORT_VALUE_TYPE_UINT32);
        vkctx::Buffer result = ctx.createBuffer(8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
        std::memset(result.mapped, 0, 8);
        Kernel produce(ctx, "produce", {buffers.keys.buffer, buffers.values.buffer});
        Kernel consume(ctx, "consume", {buffers.keys.buffer, buffers.values.buffer, result.buffer});
        VksortSortInfo info{};
        info.bindings = buffers.bindings;
        info.count = count;
        uint32_t groups = (count + 63) / 64;
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            produce.record(cmd, count, groups);
            // Before: the producer's writes of keys and values visible to compute reads, and
            // ordered before the sort's compute writes.
            vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            REQUIRE(vksortCmdSort(cmd, sorter, &info, nullptr) == VK_SUCCESS);
            // After: the sort's compute writes visible to the consumer's reads.
            vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
            consume.record(cmd, count, groups); // rebinds its own pipeline, set and constants
            vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        });
        const uint32_t* r = static_cast<const uint32_t*>(result.mapped);
        CHECK(r[0] == 0);                                               // ordered, stable, in range
        CHECK(r[1] == uint32_t(uint64_t(count) * (count - 1) / 2));    // every index exactly once
        vktest::requireCleanValidation(ctx);
        ctx.destroyBuffer(result);
    }
}
