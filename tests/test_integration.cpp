// vksort inside a renderer's command buffers: counts produced on the GPU, the documented barrier
// contract between a producer and a consumer, recording from several threads, and the
// timestamps a profiler reads. Everything runs under synchronization validation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <thread>

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

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                   VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = srcAccess;
    barrier.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

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

    // 0, 1, the single-dispatch limit and one past it, the capacity, and counts above it (clamped).
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
            memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            REQUIRE(vksortCmdSortIndirect(cmd, sorter, &info, count.buffer, 0, nullptr) == VK_SUCCESS);
            memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
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
            memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            REQUIRE(vksortCmdSort(cmd, sorter, &info, nullptr) == VK_SUCCESS);
            // After: the sort's compute writes visible to the consumer's reads.
            memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
            consume.record(cmd, count, groups); // rebinds its own pipeline, set and constants
            memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        });
        const uint32_t* r = static_cast<const uint32_t*>(result.mapped);
        CHECK(r[0] == 0);                                               // ordered, stable, in range
        CHECK(r[1] == uint32_t(uint64_t(count) * (count - 1) / 2));    // every index exactly once
        vktest::requireCleanValidation(ctx);
        ctx.destroyBuffer(result);
    }
}

TEST_CASE("several threads record with one sorter at once", "[threads]") {
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    constexpr uint32_t kThreads = 4;
    const uint32_t counts[kThreads] = {1000, 30011, 4096, 70001};
    std::vector<std::unique_ptr<PairBuffers>> buffers;
    std::vector<std::vector<uint32_t>> inputs(kThreads);
    for (uint32_t t = 0; t < kThreads; ++t) {
        buffers.push_back(std::make_unique<PairBuffers>(ctx, sorter, counts[t], VKSORT_VALUE_TYPE_INDEX));
        inputs[t].resize(counts[t]);
        for (uint32_t i = 0; i < counts[t]; ++i) inputs[t][i] = ((i + 7 * t) * 2246822519u) >> 9;
        std::memcpy(buffers[t]->key(), inputs[t].data(), counts[t] * 4u);
    }

    // Each thread owns a command pool (Vulkan requires that) and records into its own command
    // buffer; all share the sorter. The recordings happen concurrently.
    std::vector<std::unique_ptr<vktest::ThreadCommands>> commands;
    for (uint32_t t = 0; t < kThreads; ++t) commands.push_back(std::make_unique<vktest::ThreadCommands>(ctx));
    std::vector<VkResult> results(kThreads, VK_ERROR_UNKNOWN);
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t]() {
            VkCommandBuffer cmd = commands[t]->buffer();
            VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            vkBeginCommandBuffer(cmd, &begin);
            vktest::hostToCompute(cmd);
            VksortSortInfo info{};
            info.bindings = buffers[t]->bindings;
            info.count = counts[t];
            // Many sorts per thread, back to back, to give the threads time to overlap.
            VkResult result = VK_SUCCESS;
            for (int repeat = 0; repeat < 8 && result == VK_SUCCESS; ++repeat) {
                result = vksortCmdSort(cmd, sorter, &info, nullptr);
                vktest::computeToCompute(cmd);
            }
            vktest::computeToHost(cmd);
            vkEndCommandBuffer(cmd);
            results[t] = result;
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (uint32_t t = 0; t < kThreads; ++t) {
        REQUIRE(results[t] == VK_SUCCESS);
        ctx.submitAndWait(commands[t]->buffer());
        // Repeated argsorts of already sorted keys: the keys stay sorted and the values are the
        // last sort's identity permutation of its (sorted) input.
        std::vector<uint32_t> expected = inputs[t];
        std::stable_sort(expected.begin(), expected.end());
        for (uint32_t i = 0; i < counts[t]; ++i) {
            REQUIRE(buffers[t]->key()[i] == expected[i]);
            REQUIRE(buffers[t]->value()[i] == i);
        }
    }
    vktest::requireCleanValidation(ctx);
}

TEST_CASE("timestamps for profilers: one before the sort and one per dispatch slot", "[timestamps]") {
    vkctx::Context& ctx = vktest::context();
    if (ctx.timestampValidBits() == 0) {
        WARN("the queue family has no timestamps: nothing to check");
        return;
    }
    VksortSorter sorter = vktest::sorter();
    VksortSorterProperties p{};
    vksortGetSorterProperties(sorter, &p);
    const uint32_t capacity = 4 * p.tileSize;
    PairBuffers buffers(ctx, sorter, capacity, VKSORT_VALUE_TYPE_UINT32);
    vkctx::Buffer count = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    *static_cast<uint32_t*>(count.mapped) = capacity;
    for (uint32_t i = 0; i < capacity; ++i) buffers.key()[i] = (i * 2654435761u) >> 3;

    struct Variant {
        uint32_t count;
        bool indirect;
        uint32_t beginBit, endBit;
    };
    for (const Variant& v : {Variant{0, false, 0, 0}, Variant{p.singleDispatchMaxCount, false, 0, 0},
                             Variant{capacity, false, 0, 0}, Variant{capacity, false, 4, 13},
                             Variant{capacity, true, 0, 0}}) {
        INFO("count " << v.count << (v.indirect ? " indirect" : "") << " bits " << v.beginBit << ":" << v.endBit);
        VksortSortInfo info{};
        info.bindings = buffers.bindings;
        info.count = v.count;
        info.beginBit = v.beginBit;
        info.endBit = v.endBit;
        VksortSortResult where{};
        REQUIRE(vksortGetSortResult(sorter, &info, &where) == VK_SUCCESS);
        // Two queries of slack on each side: the sort must write exactly its own.
        uint32_t queries = vksortTimestampQueryCount(where.passCount);
        VkQueryPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        poolInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
        poolInfo.queryCount = queries + 4;
        VkQueryPool pool = VK_NULL_HANDLE;
        VKCTX_CHECK(vkCreateQueryPool(ctx.device(), &poolInfo, nullptr, &pool));
        info.timestampQueryPool = pool;
        info.firstTimestampQuery = 2;
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, pool, 0, queries + 4);
            memoryBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
            if (v.indirect) {
                REQUIRE(vksortCmdSortIndirect(cmd, sorter, &info, count.buffer, 0, nullptr) == VK_SUCCESS);
            } else {
                REQUIRE(vksortCmdSort(cmd, sorter, &info, nullptr) == VK_SUCCESS);
            }
        });
        std::vector<uint64_t> results(2 * (queries + 4));
        vkGetQueryPoolResults(ctx.device(), pool, 0, queries + 4, results.size() * 8, results.data(), 16,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        for (uint32_t q = 0; q < queries + 4; ++q) {
            bool mine = q >= 2 && q < 2 + queries;
            INFO("query " << q);
            CHECK((results[2 * q + 1] != 0) == mine); // available exactly where the sort wrote
            if (mine && q > 2) CHECK(results[2 * q] >= results[2 * (q - 1)]);
        }
        vkDestroyQueryPool(ctx.device(), pool, nullptr);
        vktest::requireCleanValidation(ctx);
    }
    ctx.destroyBuffer(count);
}
