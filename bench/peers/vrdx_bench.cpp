// SPDX-License-Identifier: MIT
// vrdx-bench: jaesung-cs/vulkan_radix_sort ("vrdx", a header-only reduce-then-scan radix sort)
// timed the way sort-test --bench times vksort (peer_bench.hpp). vrdx sorts 32-bit unsigned keys,
// alone (vrdxCmdSort) or with 32-bit values (vrdxCmdSortKeyValue), in place in the caller's
// buffers with one storage buffer of its own, in four 8-bit passes; it needs a Vulkan 1.3 device
// with synchronization2 and push descriptors. With --indirect the count is read on the GPU
// (vrdxCmdSortIndirect, vrdxCmdSortKeyValueIndirect), from a buffer a compute shader writes in
// the restore (gpucount.hpp), as `sort-test --bench --indirect` times vksortCmdSortIndirect.
#include "gpucount.hpp"
#include "peer_bench.hpp"

#include <vk_radix_sort.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <cstdio>

#ifndef VKSORT_VRDX_REVISION
#define VKSORT_VRDX_REVISION "unknown"
#endif

namespace {

bool gIndirect = false; // --indirect

std::string version() {
    std::string v = std::to_string(VRDX_VERSION_MAJOR) + "." + std::to_string(VRDX_VERSION_MINOR) + "." +
                    std::to_string(VRDX_VERSION_PATCH);
    std::string revision = VKSORT_VRDX_REVISION;
    return revision == "unknown" || revision == "v" + v ? v : v + " (" + revision + ")";
}

class VrdxRig : public peerbench::PeerRig {
public:
    VrdxRig(vkctx::Context& ctx, VksortValueType value, uint32_t capacity)
        : ctx_(ctx), pairs_(value == VKSORT_VALUE_TYPE_UINT32), capacity_(capacity) {
        // (vrdx copies the count out of it with a transfer.)
        if (gIndirect) count_ = std::make_unique<vkctx::GpuCount>(ctx);
        VrdxSorterCreateInfo info{};
        info.physicalDevice = ctx.physicalDevice();
        info.device = ctx.device();
        info.pipelineCache = VK_NULL_HANDLE;
        auto start = std::chrono::steady_clock::now();
        VKCTX_CHECK(vrdxCreateSorter(&info, &sorter_));
        createMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

        VrdxSorterStorageRequirements r{};
        if (pairs_) vrdxGetSorterKeyValueStorageRequirements(sorter_, capacity, &r);
        else vrdxGetSorterStorageRequirements(sorter_, capacity, &r);
        storage_ = ctx.createBuffer(r.size, r.usage, false);
        // vrdx binds count * 4 bytes rounded up to minStorageBufferOffsetAlignment.
        VkDeviceSize bytes = toolutil::alignUp(VkDeviceSize(capacity) * 4,
                                               std::max<VkDeviceSize>(ctx.properties().limits.minStorageBufferOffsetAlignment, 4));
        keys_ = ctx.createBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
        pristineKeys_ = ctx.createBuffer(bytes, 0, false);
        if (pairs_) {
            values_ = ctx.createBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
            pristineValues_ = ctx.createBuffer(bytes, 0, false);
        }
    }

    ~VrdxRig() override {
        vkDeviceWaitIdle(ctx_.device());
        vrdxDestroySorter(sorter_);
        count_.reset();
        for (vkctx::Buffer* b : {&keys_, &values_, &storage_, &pristineKeys_, &pristineValues_}) {
            ctx_.destroyBuffer(*b);
        }
    }

    void load(const hostdata::Data& input) override {
        ctx_.upload(pristineKeys_, 0, input.keys.data(), input.keys.size());
        if (pairs_) ctx_.upload(pristineValues_, 0, input.values.data(), input.values.size());
        if (gIndirect) count_->set(input.count);
    }

    void recordRestore(VkCommandBuffer cmd, uint32_t count) override {
        VkBufferCopy region{0, 0, VkDeviceSize(count) * 4};
        vkCmdCopyBuffer(cmd, pristineKeys_.buffer, keys_.buffer, 1, &region);
        if (pairs_) vkCmdCopyBuffer(cmd, pristineValues_.buffer, values_.buffer, 1, &region);
        if (gIndirect) count_->record(cmd); // (the count that load() set)
    }

    void recordSort(VkCommandBuffer cmd, uint32_t count) override {
        if (gIndirect && pairs_) {
            vrdxCmdSortKeyValueIndirect(cmd, sorter_, capacity_, count_->buffer(), 0, keys_.buffer, 0, values_.buffer,
                                        0, storage_.buffer, 0, VK_NULL_HANDLE, 0);
        } else if (gIndirect) {
            vrdxCmdSortIndirect(cmd, sorter_, capacity_, count_->buffer(), 0, keys_.buffer, 0, storage_.buffer, 0,
                                VK_NULL_HANDLE, 0);
        } else if (pairs_) {
            vrdxCmdSortKeyValue(cmd, sorter_, count, keys_.buffer, 0, values_.buffer, 0, storage_.buffer, 0,
                                VK_NULL_HANDLE, 0);
        } else {
            vrdxCmdSort(cmd, sorter_, count, keys_.buffer, 0, storage_.buffer, 0, VK_NULL_HANDLE, 0);
        }
    }

    // Four passes: the result is back in the caller's buffers.
    void readResult(uint32_t count, std::vector<uint8_t>* keys, std::vector<uint8_t>* values) override {
        keys->resize(size_t(count) * 4);
        ctx_.download(keys_, 0, keys->data(), keys->size());
        values->clear();
        if (pairs_) {
            values->resize(size_t(count) * 4);
            ctx_.download(values_, 0, values->data(), values->size());
        }
    }

private:
    vkctx::Context& ctx_;
    bool pairs_;
    uint32_t capacity_; // the buffers' count: an indirect sort's maxElementCount
    VrdxSorter sorter_ = VK_NULL_HANDLE;
    vkctx::Buffer keys_, values_, storage_, pristineKeys_, pristineValues_;
    std::unique_ptr<vkctx::GpuCount> count_; // --indirect: written by a compute shader in the restore
};

} // namespace

int main(int argc, char** argv) {
    peerbench::Peer peer;
    peer.tool = "vrdx-bench";
    peer.library = "vrdx";
    peer.version = version();
    peer.keyTypes = {VKSORT_KEY_TYPE_UINT32};
    peer.valueTypes = {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32};
    peer.sorts = [](VksortKeyType, VksortValueType) { return true; };
    // Its sizes are 32-bit byte counts of count * 4 (so below 2^30 keys), and each key buffer is
    // one storage binding.
    peer.maxCount = [](vkctx::Context& ctx, VksortKeyType, VksortValueType) {
        uint64_t range = ctx.properties().limits.maxStorageBufferRange;
        return uint32_t(std::min<uint64_t>((1u << 30) - 4096, range / 4));
    };
    peer.requirements = [](const vkctx::Context&) {
        vkctx::DeviceRequirements r;
        r.apiVersion = VK_API_VERSION_1_3;
        r.extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
        r.features13.synchronization2 = VK_TRUE;
        return r;
    };
    // Its shaders take the subgroup size the driver picks and size their shared arrays for 32 or 64
    // lanes (at most 17 subgroups in a workgroup of 512): with fewer lanes they sort wrongly.
    peer.configuration = [](vkctx::Context& ctx) {
        const uint32_t lanes = ctx.subgroupProperties().subgroupSize;
        std::string s = "subgroup " + std::to_string(lanes);
        if (lanes < 32) s += " (vrdx needs 32 or more lanes: expect wrong results)";
        if (gIndirect) s += ", count read on the GPU (vrdxCmdSort*Indirect)";
        return s;
    };
    peer.ownOption = [](toolutil::Args& args) {
        if (args.option() != "--indirect") return toolutil::Parsed::NotMine;
        gIndirect = true;
        return toolutil::Parsed::Ok;
    };
    peer.ownUsage = "  --indirect                read the count from a GPU buffer (vrdxCmdSort*Indirect)\n";
    peer.makeRig = [](vkctx::Context& ctx, VksortKeyType, VksortValueType value, uint32_t capacity) {
        return std::unique_ptr<peerbench::PeerRig>(new VrdxRig(ctx, value, capacity));
    };
    return peerbench::run(argc, argv, peer);
}
