// SPDX-License-Identifier: MIT
// fuchsia-bench: the radix sort of Google's Fuchsia (RadixSort/VK, juliusikkala/fuchsia_radix_sort's
// CMake packaging) timed the way sort-test --bench times vksort (peer_bench.hpp).
//
// Fuchsia sorts "keyvals" of 32 or 64 bits by their most significant key_bits, from one buffer
// into another (even and odd: which holds the result depends on the pass count), with buffer
// device addresses. So:
//   u32 keys        32-bit keyvals, key_bits 32 (four passes)
//   u64 keys        64-bit keyvals, key_bits 64 (eight passes)
//   u32 keys with u32 values   64-bit keyvals, the key in the high half and the value in the low
//                   half, key_bits 32 (four passes over 8-byte keyvals): the library's own way to
//                   carry a value. The pristine input is stored packed; packing and unpacking are
//                   not timed, as a renderer using Fuchsia would keep its data packed.
// It has no 64-bit keys with values (that would take a 96-bit keyval) and no signed or float keys.
// Its compiled targets are tuned per vendor and assume the device's subgroup size; --target picks
// one, by default the library's choice for the vendor (radix_sort_vk_target_auto_detect), or, for
// a vendor it does not know (a CPU driver such as lavapipe), the target whose subgroup size is the
// device's.
#include "peer_bench.hpp"

#include <radix_sort/platforms/vk/radix_sort_vk.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#ifndef VKSORT_FUCHSIA_REVISION
#define VKSORT_FUCHSIA_REVISION "unknown"
#endif

// The library's compiled targets (platforms/vk/targets/vendors/*/*/header.c).
extern "C" {
extern const radix_sort_vk_target_t sm35_u32_target, sm35_u64_target;
extern const radix_sort_vk_target_t gcn3_u32_target, gcn3_u64_target;
extern const radix_sort_vk_target_t gen8_u32_target, gen8_u64_target;
extern const radix_sort_vk_target_t bifrost4_u32_target, bifrost4_u64_target;
extern const radix_sort_vk_target_t bifrost8_u32_target, bifrost8_u64_target;
}

namespace {

struct TargetFamily {
    const char* name;
    uint32_t subgroupSize; // what its shaders assume
    const radix_sort_vk_target_t* u32;
    const radix_sort_vk_target_t* u64;
};

const TargetFamily kTargets[] = {
    {"sm35", 32, &sm35_u32_target, &sm35_u64_target},             // NVIDIA
    {"gcn3", 64, &gcn3_u32_target, &gcn3_u64_target},             // AMD
    {"gen8", 16, &gen8_u32_target, &gen8_u64_target},             // Intel (requires subgroup size 16)
    {"bifrost4", 4, &bifrost4_u32_target, &bifrost4_u64_target}, // ARM Mali
    {"bifrost8", 8, &bifrost8_u32_target, &bifrost8_u64_target}, // ARM Mali
};

std::string gTarget = "auto"; // --target

const TargetFamily* chooseTarget(const vkctx::Context& ctx, std::string* how) {
    if (gTarget != "auto") {
        for (const TargetFamily& t : kTargets) {
            if (gTarget == t.name) {
                *how = "--target";
                return &t;
            }
        }
    }
    const uint32_t vendor = ctx.properties().vendorID;
    if (vendor == 0x10DE || vendor == 0x1002 || vendor == 0x8086 || vendor == 0x13B5) {
        const radix_sort_vk_target_t* chosen = radix_sort_vk_target_auto_detect(&ctx.properties(), 1);
        for (const TargetFamily& t : kTargets) {
            if (t.u32 == chosen) {
                *how = "the library's choice for the vendor";
                return &t;
            }
        }
    }
    for (const TargetFamily& t : kTargets) {
        if (t.subgroupSize == ctx.subgroupProperties().subgroupSize) {
            *how = "the device's subgroup size";
            return &t;
        }
    }
    return nullptr;
}

const TargetFamily* gFamily = nullptr;
std::string gHow;

const TargetFamily& family(const vkctx::Context& ctx) {
    if (gFamily == nullptr) {
        gFamily = chooseTarget(ctx, &gHow);
        if (gFamily == nullptr) {
            std::fprintf(stderr, "fuchsia-bench: no Fuchsia target fits %s (subgroup size %u); --target names one\n",
                         ctx.properties().deviceName, ctx.subgroupProperties().subgroupSize);
            std::exit(1);
        }
    }
    return *gFamily;
}

// The union of what the family's two targets need.
vkctx::DeviceRequirements requirements(const vkctx::Context& ctx) {
    vkctx::DeviceRequirements r;
    r.apiVersion = VK_API_VERSION_1_2;
    const TargetFamily& f = family(ctx);
    for (const radix_sort_vk_target_t* target : {f.u32, f.u64}) {
        radix_sort_vk_target_requirements_t q{};
        q.pdf = &r.features10;
        q.pdf11 = &r.features11;
        q.pdf12 = &r.features12;
        radix_sort_vk_target_get_requirements(target, &q); // the count of extensions
        std::vector<const char*> names(q.ext_name_count);
        q.ext_names = names.data();
        if (!radix_sort_vk_target_get_requirements(target, &q)) {
            std::fprintf(stderr, "fuchsia-bench: radix_sort_vk_target_get_requirements failed for %s\n", f.name);
            std::exit(1);
        }
        for (const char* name : names) {
            bool known = false;
            for (const std::string& e : r.extensions) known = known || e == name;
            if (!known) r.extensions.push_back(name);
        }
    }
    return r;
}

uint64_t deviceAddress(vkctx::Context& ctx, VkBuffer buffer) {
    VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    info.buffer = buffer;
    return vkGetBufferDeviceAddress(ctx.device(), &info);
}

class FuchsiaRig : public peerbench::PeerRig {
public:
    FuchsiaRig(vkctx::Context& ctx, VksortKeyType key, VksortValueType value, uint32_t capacity)
        : ctx_(ctx), pairs_(value == VKSORT_VALUE_TYPE_UINT32) {
        const bool wide = key == VKSORT_KEY_TYPE_UINT64 || pairs_;
        keyvalBytes_ = wide ? 8 : 4;
        keyBits_ = key == VKSORT_KEY_TYPE_UINT64 ? 64 : 32;
        const TargetFamily& f = family(ctx);
        auto start = std::chrono::steady_clock::now();
        rs_ = radix_sort_vk_create(ctx.device(), nullptr, VK_NULL_HANDLE, wide ? f.u64 : f.u32);
        createMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (rs_ == nullptr) {
            std::fprintf(stderr, "fuchsia-bench: radix_sort_vk_create failed (target %s)\n", f.name);
            std::exit(1);
        }
        radix_sort_vk_memory_requirements_t mr{};
        radix_sort_vk_get_memory_requirements(rs_, capacity, &mr);
        const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
        even_ = ctx.createBuffer(mr.keyvals_size, usage, false);
        odd_ = ctx.createBuffer(mr.keyvals_size, usage, false);
        internal_ = ctx.createBuffer(mr.internal_size, usage, false);
        pristine_ = ctx.createBuffer(mr.keyvals_size, 0, false);
        for (auto [buffer, alignment] : {std::pair<VkBuffer, VkDeviceSize>{even_.buffer, mr.keyvals_alignment},
                                         {odd_.buffer, mr.keyvals_alignment},
                                         {internal_.buffer, mr.internal_alignment}}) {
            if (deviceAddress(ctx, buffer) % alignment != 0) {
                std::fprintf(stderr, "fuchsia-bench: a buffer's device address is not %llu-byte aligned\n",
                             static_cast<unsigned long long>(alignment));
                std::exit(1);
            }
        }
        sorted_ = &even_;
    }

    ~FuchsiaRig() override {
        vkDeviceWaitIdle(ctx_.device());
        radix_sort_vk_destroy(rs_, ctx_.device(), nullptr);
        for (vkctx::Buffer* b : {&even_, &odd_, &internal_, &pristine_}) ctx_.destroyBuffer(*b);
    }

    void load(const hostdata::Data& input) override {
        if (!pairs_) {
            ctx_.upload(pristine_, 0, input.keys.data(), input.keys.size());
            return;
        }
        std::vector<uint64_t> packed(input.count);
        for (uint32_t i = 0; i < input.count; ++i) packed[i] = input.key(i) << 32 | input.value(i);
        ctx_.upload(pristine_, 0, packed.data(), packed.size() * sizeof(uint64_t));
    }

    void recordRestore(VkCommandBuffer cmd, uint32_t count) override {
        VkBufferCopy region{0, 0, VkDeviceSize(count) * keyvalBytes_};
        vkCmdCopyBuffer(cmd, pristine_.buffer, even_.buffer, 1, &region);
    }

    void recordSort(VkCommandBuffer cmd, uint32_t count) override {
        radix_sort_vk_sort_info_t info{};
        info.ext = nullptr;
        info.key_bits = keyBits_;
        info.count = count;
        info.keyvals_even = {even_.buffer, 0, even_.size};
        info.keyvals_odd = {odd_.buffer, 0, odd_.size};
        info.internal = {internal_.buffer, 0, internal_.size};
        VkDescriptorBufferInfo sorted{};
        radix_sort_vk_sort(rs_, &info, ctx_.device(), cmd, &sorted);
        sorted_ = sorted.buffer == odd_.buffer ? &odd_ : &even_;
    }

    void readResult(uint32_t count, std::vector<uint8_t>* keys, std::vector<uint8_t>* values) override {
        std::vector<uint8_t> raw(size_t(count) * keyvalBytes_);
        ctx_.download(*sorted_, 0, raw.data(), raw.size());
        values->clear();
        if (!pairs_) {
            *keys = std::move(raw);
            return;
        }
        keys->resize(size_t(count) * 4);
        values->resize(size_t(count) * 4);
        for (uint32_t i = 0; i < count; ++i) {
            uint64_t kv = 0;
            std::memcpy(&kv, raw.data() + size_t(i) * 8, 8);
            const uint32_t k = uint32_t(kv >> 32), v = uint32_t(kv);
            std::memcpy(keys->data() + size_t(i) * 4, &k, 4);
            std::memcpy(values->data() + size_t(i) * 4, &v, 4);
        }
    }

private:
    vkctx::Context& ctx_;
    bool pairs_;
    uint32_t keyvalBytes_ = 4, keyBits_ = 32;
    radix_sort_vk_t* rs_ = nullptr;
    vkctx::Buffer even_, odd_, internal_, pristine_;
    const vkctx::Buffer* sorted_ = nullptr;
};

} // namespace

int main(int argc, char** argv) {
    peerbench::Peer peer;
    peer.tool = "fuchsia-bench";
    peer.library = "fuchsia";
    peer.version = std::string("fuchsia_radix_sort ") + VKSORT_FUCHSIA_REVISION;
    peer.keyTypes = {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_UINT64};
    peer.valueTypes = {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32};
    peer.sorts = [](VksortKeyType key, VksortValueType value) {
        return value == VKSORT_VALUE_TYPE_NONE || key == VKSORT_KEY_TYPE_UINT32;
    };
    // "The keyval count must be less than (1 << 30)."
    peer.maxCount = [](vkctx::Context&, VksortKeyType, VksortValueType) { return (1u << 30) - 1; };
    peer.ownOption = [](toolutil::Args& args) {
        if (args.option() != "--target") return toolutil::Parsed::NotMine;
        std::string v = args.value();
        bool known = v == "auto";
        for (const TargetFamily& t : kTargets) known = known || v == t.name;
        if (known) gTarget = v;
        return toolutil::validIf(known);
    };
    peer.ownUsage =
        "  --target NAME             the library's compiled target: auto (default: the library's choice\n"
        "                            for NVIDIA, AMD, Intel and ARM, else the one of the device's\n"
        "                            subgroup size), sm35 (32), gcn3 (64), gen8 (16), bifrost4 (4),\n"
        "                            bifrost8 (8)\n";
    peer.ownTakes = [](const std::string& option) -> std::string {
        return option == "--target" ? "auto, sm35, gcn3, gen8, bifrost4 or bifrost8" : "";
    };
    peer.requirements = requirements;
    peer.configuration = [](vkctx::Context& ctx) {
        const TargetFamily& f = family(ctx);
        return std::string("target ") + f.name + " (subgroup " + std::to_string(f.subgroupSize) + ", " + gHow +
               "; device subgroup " + std::to_string(ctx.subgroupProperties().subgroupSize) + ")";
    };
    peer.makeRig = [](vkctx::Context& ctx, VksortKeyType key, VksortValueType value, uint32_t capacity) {
        return std::unique_ptr<peerbench::PeerRig>(new FuchsiaRig(ctx, key, value, capacity));
    };
    return peerbench::run(argc, argv, peer);
}
