// SPDX-License-Identifier: MIT
// Repeated and concurrent use: many sorts in one command buffer with only the caller's barriers
// between them, one scratch shared by several bindings, the same bindings reused at other
// counts, several submissions in flight, and several threads recording at once (THREADS in the
// public header). Every sort is verified against std::stable_sort.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <thread>

#include "support.hpp"

namespace {

// One sort with its own host-visible keys and values, bound to a scratch range it may share.
struct OwnedSort {
    VksortKeyType key = VKSORT_KEY_TYPE_UINT32;
    VksortValueType value = VKSORT_VALUE_TYPE_NONE;
    uint32_t maxCount = 0;
    VksortSortInfo info{};
    hostdata::Data input;
    vkctx::Buffer keys, values;
    VksortBindings bindings = VK_NULL_HANDLE;
    VksortSortResult where{};

    std::string describe() const {
        return std::string(hostdata::toString(key)) + " keys, " + hostdata::toString(value) + " values, count " +
               std::to_string(info.count) + " of " + std::to_string(maxCount) + ", bits " +
               std::to_string(info.beginBit) + ":" + std::to_string(info.endBit) +
               (info.order == VKSORT_ORDER_ASCENDING ? ", asc" : ", desc");
    }
};

VksortMemoryRequirements requirementsOf(VksortSorter sorter, const OwnedSort& s) {
    VksortMemoryRequirementsInfo info{nullptr, s.maxCount, s.key, s.value};
    VksortMemoryRequirements r{};
    REQUIRE(vksortGetMemoryRequirements(sorter, &info, &r) == VK_SUCCESS);
    return r;
}

// Creates the keys and values buffers, loads the input and creates the bindings on `scratch`.
void prepare(VksortSorter sorter, OwnedSort& s, const VksortBufferRange& scratch, uint64_t seed) {
    vkctx::Context& ctx = vktest::context();
    VksortMemoryRequirements r = requirementsOf(sorter, s);
    s.keys = ctx.createBuffer(r.keys.size, r.keys.usage, true);
    if (r.values.size != 0) s.values = ctx.createBuffer(r.values.size, r.values.usage, true);
    const hostdata::Distribution dist = vktest::dist(seed % 3 == 0 ? hostdata::Distribution::Few : hostdata::Distribution::Uniform, 99);
    s.input = hostdata::generate(s.key, s.value, s.info.count, dist, seed);
    if (!s.input.keys.empty()) std::memcpy(s.keys.mapped, s.input.keys.data(), s.input.keys.size());
    if (!s.input.values.empty()) std::memcpy(s.values.mapped, s.input.values.data(), s.input.values.size());
    VksortBindingsCreateInfo b{};
    b.maxCount = s.maxCount;
    b.keyType = s.key;
    b.valueType = s.value;
    b.keys = {s.keys.buffer, 0, r.keys.size};
    if (r.values.size != 0) b.values = {s.values.buffer, 0, r.values.size};
    b.scratch = scratch;
    REQUIRE(vksortCreateBindings(sorter, &b, &s.bindings) == VK_SUCCESS);
    s.info.bindings = s.bindings;
}

// Checks a sort whose result is in its own keys and values buffers (even pass count) or, for
// the last sort on a shared scratch, in `scratchMapped` (odd).
void verify(const OwnedSort& s, const uint8_t* scratchMapped, uint64_t scratchOffset) {
    INFO(s.describe());
    REQUIRE(s.where.passCount > 0);
    auto at = [&](const VksortBufferRange& r, const vkctx::Buffer& own) -> const uint8_t* {
        if (r.buffer == own.buffer) return static_cast<const uint8_t*>(own.mapped) + r.offset;
        REQUIRE(scratchMapped != nullptr);
        return scratchMapped + (r.offset - scratchOffset);
    };
    std::vector<uint32_t> permutation =
        hostdata::referencePermutation(s.input, s.info.order, s.info.beginBit, s.info.endBit);
    hostdata::Verdict verdict = hostdata::verify(s.input, permutation, at(s.where.keys, s.keys),
                                                 s.value != VKSORT_VALUE_TYPE_NONE ? at(s.where.values, s.values) : nullptr);
    INFO(verdict.detail);
    CHECK(verdict.ok);
}

void destroy(VksortSorter sorter, OwnedSort& s) {
    vksortDestroyBindings(sorter, s.bindings);
    vktest::context().destroyBuffer(s.keys);
    vktest::context().destroyBuffer(s.values);
}

// A random sort description: formats vary so that every sort lays the shared scratch out
// differently (its tables land at other offsets, with other row strides).
OwnedSort randomSort(std::mt19937_64& rng, uint32_t tile, bool evenPasses) {
    OwnedSort s;
    s.key = vktest::allKeyTypes()[rng() % 6];
    s.value = vktest::allValueTypes()[rng() % 4];
    s.maxCount = 1 + uint32_t(rng() % (40 * tile));
    const uint32_t pick = uint32_t(rng() % 4);
    s.info.count = pick == 0 ? s.maxCount : pick == 1 ? uint32_t(rng() % std::min(5000u, s.maxCount + 1))
                                                  : uint32_t(rng() % (s.maxCount + 1));
    s.info.order = rng() % 2 ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
    const uint32_t width = hostdata::keyBits(s.key);
    uint32_t passes = 1 + uint32_t(rng() % (width / 4));
    if (evenPasses && passes % 2 == 1) passes = passes == width / 4 ? passes - 1 : passes + 1;
    if (!evenPasses && passes % 2 == 0) passes -= 1;
    s.info.beginBit = uint32_t(rng() % (width - 4 * passes + 1));
    s.info.endBit = s.info.beginBit + 4 * passes - uint32_t(rng() % 4);
    return s;
}

} // namespace

TEST_CASE("many sorts in one command buffer, different bindings on one shared scratch", "[repeat]") {
    // The caller's compute-to-compute barrier between sorts is all that separates them, even
    // though every sort reuses the scratch (tables included) the previous one left behind.
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    const uint32_t tile = vktest::properties(sorter).tileSize;
    std::mt19937_64 rng(2024);
    std::vector<OwnedSort> sorts;
    for (int i = 0; i < 14; ++i) sorts.push_back(randomSort(rng, tile, i != 13)); // the last: odd
    VkDeviceSize scratchSize = 0, alignment = 1;
    for (const OwnedSort& s : sorts) {
        VksortMemoryRequirements r = requirementsOf(sorter, s);
        scratchSize = std::max(scratchSize, r.scratch.size);
        alignment = std::max(alignment, r.scratch.alignment);
    }
    const VkDeviceSize scratchOffset = alignment * 3;
    vkctx::Buffer scratch = ctx.createBuffer(scratchOffset + scratchSize, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true);
    std::memset(scratch.mapped, 0xEE, size_t(scratch.size)); // garbage tables for the first sort too
    for (size_t i = 0; i < sorts.size(); ++i) prepare(sorter, sorts[i], {scratch.buffer, scratchOffset, scratchSize}, i);

    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vktest::hostToCompute(cmd);
        for (size_t i = 0; i < sorts.size(); ++i) {
            if (i != 0) vktest::computeToCompute(cmd);
            REQUIRE(vksortCmdSort(cmd, sorter, &sorts[i].info, &sorts[i].where) == VK_SUCCESS);
        }
        vktest::computeToHost(cmd);
    });
    for (size_t i = 0; i < sorts.size(); ++i) {
        INFO("sort " << i);
        CHECK(sorts[i].where.inScratch == (i + 1 == sorts.size() ? VK_TRUE : VK_FALSE));
        verify(sorts[i], static_cast<const uint8_t*>(scratch.mapped), 0);
        destroy(sorter, sorts[i]);
    }
    ctx.destroyBuffer(scratch);
    vktest::requireCleanValidation();
}

TEST_CASE("one set of bindings reused at other counts in one command buffer", "[repeat]") {
    // Large, then small, then in between: a later sort must not see the tables, tiles or keys an
    // earlier, larger one left. Between sorts the test copies fresh input in and the result out.
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    const uint32_t tile = vktest::properties(sorter).tileSize;
    const uint32_t capacity = 300 * tile; // hundreds of tiles to scan inline
    const VksortKeyType key = VKSORT_KEY_TYPE_FLOAT32;
    const VksortValueType value = VKSORT_VALUE_TYPE_UINT32;
    vktest::BindingsRig rig(ctx, sorter, key, value, capacity, 2);
    struct Run {
        uint32_t count, beginBit, endBit;
        VksortOrder order;
        hostdata::Data input;
        VksortSortResult where{};
        VkDeviceSize inputAt = 0, outputAt = 0;
    };
    std::vector<Run> runs = {{capacity, 0, 0, VKSORT_ORDER_ASCENDING, {}},   {7, 0, 0, VKSORT_ORDER_DESCENDING, {}},
                             {5 * tile + 1, 0, 20, VKSORT_ORDER_ASCENDING, {}}, {0, 0, 0, VKSORT_ORDER_ASCENDING, {}},
                             {4096, 3, 30, VKSORT_ORDER_DESCENDING, {}},     {capacity - 1, 8, 16, VKSORT_ORDER_ASCENDING, {}},
                             {3 * tile, 0, 32, VKSORT_ORDER_DESCENDING, {}},  {1, 0, 0, VKSORT_ORDER_ASCENDING, {}}};
    VkDeviceSize staging = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        runs[i].input = hostdata::generate(key, value, runs[i].count, vktest::dist(hostdata::Distribution::Few, 500), i);
        runs[i].inputAt = staging;
        staging += 8 * VkDeviceSize(runs[i].count);
        runs[i].outputAt = staging;
        staging += 8 * VkDeviceSize(runs[i].count);
    }
    vkctx::Buffer io = ctx.createBuffer(staging + 16, 0, true);
    for (const Run& run : runs) {
        if (run.count == 0) continue;
        std::memcpy(static_cast<uint8_t*>(io.mapped) + run.inputAt, run.input.keys.data(), run.input.keys.size());
        std::memcpy(static_cast<uint8_t*>(io.mapped) + run.inputAt + 4 * run.count, run.input.values.data(),
                    run.input.values.size());
    }
    auto copy = [](VkCommandBuffer cmd, VkBuffer from, VkDeviceSize fromAt, VkBuffer to, VkDeviceSize toAt,
                   VkDeviceSize size) {
        if (size == 0) return;
        VkBufferCopy region{fromAt, toAt, size};
        vkCmdCopyBuffer(cmd, from, to, 1, &region);
    };
    const VksortBufferRange keysRange = rig.keysRange(), valuesRange = rig.valuesRange();
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        for (Run& run : runs) {
            // Fresh input into the keys and values ranges (after the previous copy-out read them).
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
            copy(cmd, io.buffer, run.inputAt, keysRange.buffer, keysRange.offset, 4 * VkDeviceSize(run.count));
            copy(cmd, io.buffer, run.inputAt + 4 * run.count, valuesRange.buffer, valuesRange.offset,
                 4 * VkDeviceSize(run.count));
            vktest::transferToCompute(cmd);
            VksortSortInfo info{};
            info.bindings = rig.bindings();
            info.count = run.count;
            info.order = run.order;
            info.beginBit = run.beginBit;
            info.endBit = run.endBit;
            REQUIRE(vksortCmdSort(cmd, sorter, &info, &run.where) == VK_SUCCESS);
            vktest::computeToTransfer(cmd);
            copy(cmd, run.where.keys.buffer, run.where.keys.offset, io.buffer, run.outputAt, 4 * VkDeviceSize(run.count));
            copy(cmd, run.where.values.buffer, run.where.values.offset, io.buffer, run.outputAt + 4 * run.count,
                 4 * VkDeviceSize(run.count));
        }
        VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                             nullptr, 0, nullptr);
    });
    for (size_t i = 0; i < runs.size(); ++i) {
        const Run& run = runs[i];
        INFO("run " << i << ": count " << run.count << ", bits " << run.beginBit << ":" << run.endBit);
        const uint8_t* out = static_cast<const uint8_t*>(io.mapped) + run.outputAt;
        auto permutation = hostdata::referencePermutation(run.input, run.order, run.beginBit, run.endBit);
        hostdata::Verdict verdict = hostdata::verify(run.input, permutation, out, out + 4 * run.count);
        INFO(verdict.detail);
        CHECK(verdict.ok);
    }
    std::string damage = rig.guardDamage();
    INFO(damage);
    CHECK(damage.empty());
    ctx.destroyBuffer(io);
    vktest::requireCleanValidation();
}

TEST_CASE("sorts across several submissions in flight, and a result sorted again", "[repeat]") {
    // Each sort in its own command buffer, all submitted before any is waited for: the barrier
    // at the start of each orders it after the previous submission's sort on the shared scratch.
    // Then two different bindings interleaved in one command buffer, one sorted twice.
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    const uint32_t tile = vktest::properties(sorter).tileSize;
    std::mt19937_64 rng(77);
    std::vector<OwnedSort> sorts;
    for (int i = 0; i < 6; ++i) sorts.push_back(randomSort(rng, tile, true));
    VkDeviceSize scratchSize = 0;
    for (const OwnedSort& s : sorts) scratchSize = std::max(scratchSize, requirementsOf(sorter, s).scratch.size);
    vkctx::Buffer scratch = ctx.createBuffer(scratchSize, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, false);
    for (size_t i = 0; i < sorts.size(); ++i) prepare(sorter, sorts[i], {scratch.buffer, 0, scratchSize}, 100 + i);

    std::vector<VkCommandBuffer> buffers;
    for (OwnedSort& s : sorts) {
        VkCommandBuffer cmd = ctx.allocateCommandBuffer();
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        REQUIRE(vkBeginCommandBuffer(cmd, &begin) == VK_SUCCESS);
        vktest::hostToCompute(cmd);
        vktest::computeToCompute(cmd);
        REQUIRE(vksortCmdSort(cmd, sorter, &s.info, &s.where) == VK_SUCCESS);
        vktest::computeToHost(cmd);
        REQUIRE(vkEndCommandBuffer(cmd) == VK_SUCCESS);
        buffers.push_back(cmd);
    }
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    REQUIRE(vkCreateFence(ctx.device(), &fenceInfo, nullptr, &fence) == VK_SUCCESS);
    for (size_t i = 0; i < buffers.size(); ++i) {
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &buffers[i];
        REQUIRE(vkQueueSubmit(ctx.queue(), 1, &submit, i + 1 == buffers.size() ? fence : VK_NULL_HANDLE) == VK_SUCCESS);
    }
    REQUIRE(vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
    vkDestroyFence(ctx.device(), fence, nullptr);
    for (VkCommandBuffer cmd : buffers) ctx.freeCommandBuffer(cmd);
    for (OwnedSort& s : sorts) {
        verify(s, nullptr, 0);
        destroy(sorter, s);
    }
    ctx.destroyBuffer(scratch);

    // A: u64 pairs sorted ascending by all bits, then its result again descending by the low 32
    // bits; B (f32 argsort) in between with its own scratch. The second sort of A sees A's first
    // result, so the reference is applied twice.
    vktest::BindingsRig a(ctx, sorter, VKSORT_KEY_TYPE_UINT64, VKSORT_VALUE_TYPE_UINT64, 7 * tile + 3);
    vktest::BindingsRig b(ctx, sorter, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX, 300 * tile + 9);
    hostdata::Data inputA = hostdata::generate(VKSORT_KEY_TYPE_UINT64, VKSORT_VALUE_TYPE_UINT64, 7 * tile + 3,
                                               vktest::dist(hostdata::Distribution::Few, 200), 5);
    hostdata::Data inputB = hostdata::generate(VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX, 300 * tile + 9, {}, 6);
    a.load(inputA);
    b.load(inputB);
    VksortSortInfo first{}, second{}, other{};
    first.bindings = second.bindings = a.bindings();
    first.count = second.count = inputA.count;
    second.order = VKSORT_ORDER_DESCENDING;
    second.endBit = 32;
    other.bindings = b.bindings();
    other.count = inputB.count;
    VksortSortResult whereA{}, whereB{};
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vktest::hostToCompute(cmd);
        REQUIRE(vksortCmdSort(cmd, sorter, &first, nullptr) == VK_SUCCESS);
        vktest::computeToCompute(cmd);
        REQUIRE(vksortCmdSort(cmd, sorter, &other, &whereB) == VK_SUCCESS);
        vktest::computeToCompute(cmd);
        REQUIRE(vksortCmdSort(cmd, sorter, &second, &whereA) == VK_SUCCESS);
        vktest::computeToHost(cmd);
    });
    auto once = hostdata::referencePermutation(inputA, VKSORT_ORDER_ASCENDING, 0, 0);
    hostdata::Data middle = inputA;
    for (uint32_t i = 0; i < inputA.count; ++i) {
        std::memcpy(middle.keys.data() + size_t(i) * 8, inputA.keys.data() + size_t(once[i]) * 8, 8);
        std::memcpy(middle.values.data() + size_t(i) * 8, inputA.values.data() + size_t(once[i]) * 8, 8);
    }
    auto twice = hostdata::referencePermutation(middle, VKSORT_ORDER_DESCENDING, 0, 32);
    hostdata::Verdict verdictA = hostdata::verify(middle, twice, a.mapped(whereA.keys), a.mapped(whereA.values));
    INFO("A: " << verdictA.detail);
    CHECK(verdictA.ok);
    auto permutationB = hostdata::referencePermutation(inputB, VKSORT_ORDER_ASCENDING, 0, 0);
    hostdata::Verdict verdictB = hostdata::verify(inputB, permutationB, b.mapped(whereB.keys), b.mapped(whereB.values));
    INFO("B: " << verdictB.detail);
    CHECK(verdictB.ok);
    CHECK(a.guardDamage().empty());
    CHECK(b.guardDamage().empty());
    vktest::requireCleanValidation();
}

TEST_CASE("several threads record with one sorter at once", "[repeat]") {
    // Each thread records its own sorts into its own command buffer from its own pool; the main
    // thread submits them all together. The sorter is shared; each thread records its command
    // buffer many times over (resetting it) so that the recordings really overlap, each time
    // with two sorts of the same bindings back to back: the second sorts the first one's output
    // (all bits: an even pass count leaves it in place).
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    const uint32_t tile = vktest::properties(sorter).tileSize;
    constexpr int kThreads = 4;
    std::vector<std::unique_ptr<vktest::BindingsRig>> rigs;
    std::vector<hostdata::Data> inputs;
    const VksortKeyType keys[kThreads] = {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT64, VKSORT_KEY_TYPE_FLOAT32,
                                          VKSORT_KEY_TYPE_FLOAT64};
    const VksortValueType values[kThreads] = {VKSORT_VALUE_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE,
                                              VKSORT_VALUE_TYPE_INDEX, VKSORT_VALUE_TYPE_UINT64};
    for (int t = 0; t < kThreads; ++t) {
        const uint32_t count = (t + 2) * tile + 11 * t;
        rigs.push_back(std::make_unique<vktest::BindingsRig>(ctx, sorter, keys[t], values[t], count));
        inputs.push_back(hostdata::generate(keys[t], values[t], count, vktest::dist(hostdata::Distribution::Few, 30), t));
        rigs.back()->load(inputs.back());
    }
    std::vector<std::unique_ptr<vktest::ThreadCommands>> commands;
    std::vector<VkCommandBuffer> buffers;
    for (int t = 0; t < kThreads; ++t) {
        commands.push_back(std::make_unique<vktest::ThreadCommands>(ctx, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT));
        buffers.push_back(commands.back()->buffer());
    }
    std::vector<VksortSortResult> where(kThreads);
    std::vector<VkResult> results(kThreads, VK_ERROR_UNKNOWN);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            // No Catch2 assertions off the main thread: results are checked after the join.
            VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            VksortSortInfo info{};
            info.bindings = rigs[t]->bindings();
            info.count = inputs[t].count;
            info.order = t % 2 ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
            VkResult r = VK_SUCCESS;
            for (int repeat = 0; repeat < 50 && r == VK_SUCCESS; ++repeat) {
                if (repeat != 0) vkResetCommandBuffer(buffers[t], 0);
                vkBeginCommandBuffer(buffers[t], &begin);
                vktest::hostToCompute(buffers[t]);
                r = vksortCmdSort(buffers[t], sorter, &info, nullptr);
                vktest::computeToCompute(buffers[t]);
                if (r == VK_SUCCESS) r = vksortCmdSort(buffers[t], sorter, &info, &where[t]);
                vktest::computeToHost(buffers[t]);
                vkEndCommandBuffer(buffers[t]);
            }
            results[t] = r;
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) CHECK(results[t] == VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = kThreads;
    submit.pCommandBuffers = buffers.data();
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    REQUIRE(vkCreateFence(ctx.device(), &fenceInfo, nullptr, &fence) == VK_SUCCESS);
    REQUIRE(vkQueueSubmit(ctx.queue(), 1, &submit, fence) == VK_SUCCESS);
    REQUIRE(vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
    vkDestroyFence(ctx.device(), fence, nullptr);
    for (int t = 0; t < kThreads; ++t) {
        INFO("thread " << t);
        CHECK(where[t].inScratch == VK_FALSE);
        // The second sort's input: the first one's output, the input stably sorted. (For the
        // argsort that makes the expected values the identity, its input being in order.)
        const VksortOrder order = t % 2 ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
        const auto once = hostdata::referencePermutation(inputs[t], order, 0, 0);
        hostdata::Data sorted = inputs[t];
        const uint32_t kb = vksortKeySize(keys[t]), vb = vksortValueSize(values[t]);
        for (uint32_t i = 0; i < sorted.count; ++i) {
            std::memcpy(sorted.keys.data() + size_t(i) * kb, inputs[t].keys.data() + size_t(once[i]) * kb, kb);
            if (!sorted.values.empty()) {
                std::memcpy(sorted.values.data() + size_t(i) * vb, inputs[t].values.data() + size_t(once[i]) * vb, vb);
            }
        }
        auto permutation = hostdata::referencePermutation(sorted, order, 0, 0);
        hostdata::Verdict verdict =
            hostdata::verify(sorted, permutation, rigs[t]->mapped(where[t].keys),
                             values[t] != VKSORT_VALUE_TYPE_NONE ? rigs[t]->mapped(where[t].values) : nullptr);
        INFO(verdict.detail);
        CHECK(verdict.ok);
    }
    vktest::requireCleanValidation();
}
