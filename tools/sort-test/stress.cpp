// SPDX-License-Identifier: MIT
// sort-test --stress: many random sorts, many per command buffer, across many submissions, each
// verified against std::stable_sort. Per batch, every sort gets its own bindings on its own
// ranges of three shared buffers (so the sorts in one command buffer share no memory and need
// no barrier between them), a random key type, value kind, order, bit range, count (up to the
// batch's capacity, sometimes 0 or 1) and direct or indirect count. Guard bands of canary
// bytes lie before, between and after the ranges; a changed byte there is a failure (a write
// outside the ranges the bindings declared).
#include "stress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "guard.hpp"
#include "toolutil.hpp"

namespace {

struct Job {
    VksortKeyType key;
    VksortValueType value;
    VksortOrder order;
    uint32_t count, capacity, beginBit, endBit;
    bool indirect;
    VkDeviceSize keysOffset, valuesOffset, scratchOffset, countOffset;
    VksortMemoryRequirements requirements;
    VksortBindings bindings = VK_NULL_HANDLE;
    hostdata::Data input;
};

using toolutil::alignUp;

constexpr VkDeviceSize kGuardBytes = 256;

} // namespace

int runStress(vkctx::Context& ctx, VksortSorter sorter, const StressOptions& o) {
    std::mt19937_64 rng(o.seed);
    uint64_t sorts = 0, failures = 0;
    std::printf("sort-test --stress: %s | %s | %u batches of %u sorts of up to %u keys, seed %llu\n",
                ctx.properties().deviceName, ctx.driverDescription().c_str(), o.batches, o.sortsPerBatch, o.maxCount,
                static_cast<unsigned long long>(o.seed));
    for (uint32_t batch = 0; batch < o.batches; ++batch) {
        std::vector<Job> jobs(o.sortsPerBatch);
        VkDeviceSize keysSize = 0, valuesSize = 0, scratchSize = 0, countSize = 0;
        for (Job& j : jobs) {
            j.key = VksortKeyType(rng() % 6);
            j.value = VksortValueType(rng() % 4);
            j.order = rng() % 2 ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
            uint32_t bits = hostdata::keyBits(j.key);
            switch (rng() % 4) {
            case 0: j.beginBit = 0; j.endBit = 0; break;
            default:
                j.beginBit = uint32_t(rng() % bits);
                j.endBit = j.beginBit + 1 + uint32_t(rng() % (bits - j.beginBit));
            }
            // Mostly small and medium sizes, sometimes the edges.
            switch (rng() % 8) {
            case 0: j.count = uint32_t(rng() % 2); break;
            case 1: j.count = o.maxCount; break;
            default: j.count = uint32_t(std::pow(double(o.maxCount), double(rng() % 1000) / 1000.0)); break;
            }
            j.capacity = std::max(j.count + uint32_t(rng() % 64), 1u);
            j.indirect = rng() % 3 == 0;
            VksortMemoryRequirementsInfo info{nullptr, j.capacity, j.key, j.value};
            if (vksortGetMemoryRequirements(sorter, &info, &j.requirements) != VK_SUCCESS) return 2;
            j.keysOffset = alignUp(keysSize + kGuardBytes, j.requirements.keys.alignment);
            keysSize = j.keysOffset + j.requirements.keys.size;
            j.valuesOffset = alignUp(valuesSize + kGuardBytes, std::max<VkDeviceSize>(j.requirements.values.alignment, 1));
            valuesSize = j.valuesOffset + j.requirements.values.size;
            j.scratchOffset = alignUp(scratchSize + kGuardBytes, j.requirements.scratch.alignment);
            scratchSize = j.scratchOffset + j.requirements.scratch.size;
            j.countOffset = countSize + kGuardBytes;
            countSize = j.countOffset + 4;
        }
        keysSize += kGuardBytes;
        valuesSize += kGuardBytes;
        scratchSize += kGuardBytes;
        countSize += kGuardBytes;
        VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                   VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
        vkctx::Buffer keys = ctx.createBuffer(keysSize, usage, true);
        vkctx::Buffer values = ctx.createBuffer(std::max<VkDeviceSize>(valuesSize, 16), usage, true);
        vkctx::Buffer scratch = ctx.createBuffer(scratchSize, usage, true);
        vkctx::Buffer counts = ctx.createBuffer(countSize, usage, true);
        for (auto [b, size] : {std::pair{&keys, keysSize}, {&values, valuesSize}, {&scratch, scratchSize}, {&counts, countSize}}) {
            guard::fill(b->mapped, size);
        }
        for (Job& j : jobs) {
            j.input = hostdata::generate(j.key, j.value, j.count, hostdata::Distribution{}, rng());
            // (memcpy needs valid pointers even for 0 bytes; an empty vector's data() may be null.)
            if (!j.input.keys.empty()) {
                std::memcpy(static_cast<uint8_t*>(keys.mapped) + j.keysOffset, j.input.keys.data(), j.input.keys.size());
            }
            if (!j.input.values.empty()) {
                std::memcpy(static_cast<uint8_t*>(values.mapped) + j.valuesOffset, j.input.values.data(),
                            j.input.values.size());
            }
            std::memcpy(static_cast<uint8_t*>(counts.mapped) + j.countOffset, &j.count, 4);
            VksortBindingsCreateInfo b{nullptr, j.capacity, j.key, j.value,
                                       {keys.buffer, j.keysOffset, j.requirements.keys.size},
                                       {values.buffer, j.valuesOffset, j.requirements.values.size},
                                       {scratch.buffer, j.scratchOffset, j.requirements.scratch.size}};
            if (j.value == VKSORT_VALUE_TYPE_NONE) b.values = {};
            VKCTX_CHECK(vksortCreateBindings(sorter, &b, &j.bindings));
        }
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            before.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
            before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before,
                                 0, nullptr, 0, nullptr);
            for (const Job& j : jobs) {
                VksortSortInfo info{nullptr, j.bindings, j.count, j.order, j.beginBit, j.endBit, VK_NULL_HANDLE, 0};
                if (j.indirect) {
                    VKCTX_CHECK(vksortCmdSortIndirect(cmd, sorter, &info, counts.buffer, j.countOffset, nullptr));
                } else {
                    VKCTX_CHECK(vksortCmdSort(cmd, sorter, &info, nullptr));
                }
            }
            VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0,
                                 nullptr, 0, nullptr);
        });
        for (Job& j : jobs) {
            VksortSortInfo info{nullptr, j.bindings, j.count, j.order, j.beginBit, j.endBit, VK_NULL_HANDLE, 0};
            VksortSortResult where{};
            VKCTX_CHECK(vksortGetSortResult(sorter, &info, &where));
            auto at = [&](const VksortBufferRange& r) -> const uint8_t* {
                const vkctx::Buffer& b = r.buffer == keys.buffer ? keys : r.buffer == values.buffer ? values : scratch;
                return static_cast<const uint8_t*>(b.mapped) + r.offset;
            };
            std::vector<uint32_t> permutation = hostdata::referencePermutation(j.input, j.order, j.beginBit, j.endBit);
            hostdata::Verdict v = hostdata::verify(j.input, permutation, at(where.keys),
                                                   j.value == VKSORT_VALUE_TYPE_NONE ? nullptr : at(where.values));
            ++sorts;
            if (!v.ok) {
                ++failures;
                std::printf("sort-test --stress: FAILED batch %u: --count %u --key %s --value %s --order %s --bits %u:%u%s: "
                            "%s\n",
                            batch, j.count, hostdata::toString(j.key), hostdata::toString(j.value),
                            j.order == VKSORT_ORDER_ASCENDING ? "asc" : "desc", j.beginBit,
                            j.endBit == 0 ? hostdata::keyBits(j.key) : j.endBit, j.indirect ? " --indirect" : "",
                            v.detail.c_str());
            }
            vksortDestroyBindings(sorter, j.bindings);
        }
        std::vector<guard::Range> keyRanges, valueRanges, scratchRanges, countRanges;
        for (const Job& j : jobs) {
            keyRanges.push_back({j.keysOffset, j.requirements.keys.size});
            if (j.value != VKSORT_VALUE_TYPE_NONE) valueRanges.push_back({j.valuesOffset, j.requirements.values.size});
            scratchRanges.push_back({j.scratchOffset, j.requirements.scratch.size});
            countRanges.push_back({j.countOffset, 4});
        }
        uint64_t changed = guard::check(keys.mapped, keysSize, keyRanges).count +
                           guard::check(values.mapped, valuesSize, valueRanges).count +
                           guard::check(scratch.mapped, scratchSize, scratchRanges).count +
                           guard::check(counts.mapped, countSize, countRanges).count;
        if (changed != 0) {
            ++failures;
            std::printf("sort-test --stress: FAILED batch %u: %llu guard bytes outside the declared ranges changed\n", batch,
                        static_cast<unsigned long long>(changed));
        }
        for (vkctx::Buffer* b : {&keys, &values, &scratch, &counts}) ctx.destroyBuffer(*b);
    }
    size_t validation = ctx.validationMessageCount();
    std::printf("sort-test --stress: %llu sorts in %u submissions, %llu failed, %zu validation messages; guard bands "
                "around every range checked (%u bytes each)\n",
                static_cast<unsigned long long>(sorts), o.batches, static_cast<unsigned long long>(failures),
                validation, unsigned(kGuardBytes));
    return failures == 0 && validation == 0 ? 0 : 1;
}
