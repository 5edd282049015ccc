// SPDX-License-Identifier: MIT
// The frame loop of a Gaussian-splatting renderer (the pattern of nvpro's vk_gaussian_splatting)
// around vksortCmdSortIndirect: each frame a culling pass writes the splats' depths (f32 keys)
// and indices (u32 values) and the visible count, into the instanceCount of the frame's
// VkDrawIndexedIndirectCommand; the sort reads that count on the GPU. Two frames are in flight,
// each re-recording its own command buffer over the buffers of its own frame slot, and every few
// frames the scene grows: the slots' buffers are reallocated bigger, the old ones destroyed once
// the frames that used them have completed. Every frame's result is read back after its fence
// and compared with std::stable_sort of its input. Once with buffers given at record time (push
// descriptors, nothing created per frame or per buffer set), once through a bindings object per
// slot and buffer set (Vulkan 1.1). Everything runs under synchronization validation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "guard.hpp"
#include "support.hpp"

namespace {

constexpr VksortKeyType kKey = VKSORT_KEY_TYPE_FLOAT32;
constexpr VksortValueType kValue = VKSORT_VALUE_TYPE_UINT32;
constexpr uint32_t kFramesInFlight = 2;

// The renderer's indirect arguments: the draw of every visible splat (a quad each, instanced),
// whose instanceCount (byte 4) the culling pass writes and the sort reads, and after it words the
// sort must leave alone (the renderer keeps a mesh-shading dispatch there).
struct IndirectArgs {
    VkDrawIndexedIndirectCommand draw;
    uint32_t rest[3];
};
static_assert(sizeof(IndirectArgs) == 32, "the arguments are tightly packed words");
constexpr VkDeviceSize kCountOffset = offsetof(VkDrawIndexedIndirectCommand, instanceCount);
static_assert(kCountOffset == 4, "instanceCount is the struct's second word");

IndirectArgs argsFor(uint32_t visible) {
    IndirectArgs a{};
    a.draw.indexCount = 6;
    a.draw.instanceCount = visible;
    for (uint32_t i = 0; i < 3; ++i) a.rest[i] = 0xC0FFEE00u + i;
    return a;
}

// A range inside a host-visible buffer, between guard bands of canary bytes (whole alignment
// units, at least 64 bytes each side), so that a write outside the declared range is seen.
struct Guarded {
    vkctx::Buffer buffer;
    VkDeviceSize offset = 0, size = 0;

    uint8_t* range() const { return static_cast<uint8_t*>(buffer.mapped) + offset; }
    std::string damage(const char* name) const {
        guard::Damage d = guard::check(buffer.mapped, buffer.size, {{offset, size}});
        if (d.count == 0) return "";
        return std::to_string(d.count) + " guard bytes of the " + name + " buffer changed, the first at byte " +
               std::to_string(d.first) + " (range [" + std::to_string(offset) + ", " + std::to_string(offset + size) +
               "))";
    }
};

// One frame slot's buffers for `capacity` splats: the scene as uploaded (depths, then indices:
// the culling stand-in's source), the sort's keys, values and scratch, and, without push
// descriptors, the bindings object over them. Destroy only once no pending frame uses them.
struct SlotBuffers {
    vkctx::Context& ctx;
    VksortSorter sorter;
    uint32_t capacity;
    VksortMemoryRequirements requirements{};
    vkctx::Buffer scene;
    Guarded keys, values, scratch;
    VksortBindingsCreateInfo buffers{};
    VksortBindings bindings = VK_NULL_HANDLE;

    SlotBuffers(vkctx::Context& context, VksortSorter s, uint32_t maxCount, bool withBindings)
        : ctx(context), sorter(s), capacity(maxCount) {
        VksortMemoryRequirementsInfo info{nullptr, capacity, kKey, kValue};
        REQUIRE(vksortGetMemoryRequirements(sorter, &info, &requirements) == VK_SUCCESS);
        scene = ctx.createBuffer(VkDeviceSize(capacity) * 8, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
        keys = guarded(requirements.keys);
        values = guarded(requirements.values);
        scratch = guarded(requirements.scratch);
        buffers = {nullptr,
                   capacity,
                   kKey,
                   kValue,
                   {keys.buffer.buffer, keys.offset, keys.size},
                   {values.buffer.buffer, values.offset, values.size},
                   {scratch.buffer.buffer, scratch.offset, scratch.size}};
        if (withBindings) REQUIRE(vksortCreateBindings(sorter, &buffers, &bindings) == VK_SUCCESS);
    }
    ~SlotBuffers() {
        vksortDestroyBindings(sorter, bindings);
        ctx.destroyBuffer(scene);
        for (Guarded* g : {&keys, &values, &scratch}) ctx.destroyBuffer(g->buffer);
    }
    SlotBuffers(const SlotBuffers&) = delete;
    SlotBuffers& operator=(const SlotBuffers&) = delete;

    Guarded guarded(const VksortBufferRequirements& need) {
        Guarded g;
        const VkDeviceSize band = (64 + need.alignment - 1) / need.alignment * need.alignment;
        g.offset = band;
        g.size = need.size;
        g.buffer = ctx.createBuffer(band + need.size + band, need.usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
        guard::fill(g.buffer.mapped, g.buffer.size);
        return g;
    }

    // A range vksort reported, mapped; REQUIREs that it lies inside one of the declared ranges.
    const uint8_t* mapped(const VksortBufferRange& r) const {
        for (const Guarded* g : {&keys, &values, &scratch}) {
            if (r.buffer != g->buffer.buffer) continue;
            REQUIRE(r.offset >= g->offset);
            REQUIRE(r.offset + r.size <= g->offset + g->size);
            return static_cast<const uint8_t*>(g->buffer.mapped) + r.offset;
        }
        FAIL("a result range in none of the slot's buffers");
        return nullptr;
    }
};

// What one frame asks of the sort.
struct FramePlan {
    uint32_t capacity; // the scene's size: the buffers' maxCount
    uint32_t visible;  // the count the culling pass writes (may exceed the capacity: clamped)
    VksortOrder order;
    uint32_t beginBit;      // 0, or 4: 7 passes, whose result lands in the scratch buffer
    bool quantizedDepths;   // low mantissa bits cleared: many equal keys, so stability shows
    bool countByFill;       // vkCmdFillBuffer of the count alone, else vkCmdUpdateBuffer of the draw
};

// What a submitted frame must have produced, checked after its fence.
struct Pending {
    uint32_t frame = 0;
    FramePlan plan{};
    hostdata::Data input;         // the first min(visible, capacity) splats: what is sorted
    std::vector<uint8_t> sceneKeys, sceneValues; // every splat of the scene, as uploaded
    VksortSortResult where{};
};

std::string describe(uint32_t frame, const FramePlan& p, bool pushed) {
    return "frame " + std::to_string(frame) + " (slot " + std::to_string(frame % kFramesInFlight) + "): capacity " +
           std::to_string(p.capacity) + ", visible count " + std::to_string(p.visible) + ", f32 depths " +
           (p.quantizedDepths ? "quantized " : "") + (p.order == VKSORT_ORDER_ASCENDING ? "asc" : "desc") +
           ", bits " + std::to_string(p.beginBit) + ":32, count written by " +
           (p.countByFill ? "vkCmdFillBuffer" : "vkCmdUpdateBuffer") +
           (pushed ? ", buffers at record time" : ", bindings per slot");
}

// The frames: the scene grows at frames 4, 8 and 12 (each slot reallocates at its next frame),
// and the visible count covers nothing, one splat, the single-workgroup limit and one past it,
// several tiles, the whole capacity and counts above it.
std::vector<FramePlan> framePlans(const VksortSorterProperties& p) {
    const uint32_t single = p.singleDispatchMaxCount, tile = p.tileSize;
    struct Step {
        uint32_t capacity, visible;
    };
    const Step steps[] = {
        {3000, 0},       {3000, 1},        {3000, std::min(single, 3000u)}, {3000, 3000 + 7},
        {12000, single + 1}, {12000, 12000}, {12000, 777},                {12000, std::min(2 * tile + 5, 12000u)},
        {40000, 0xFFFFFFFFu}, {40000, 0},   {40000, 39999},              {40000, std::min(3 * tile + 1, 40000u)},
        {100000, 100000}, {100000, 1},     {100000, 65537},             {100000, 100003},
        {100000, single}, {100000, 54321},
    };
    std::vector<FramePlan> plans;
    for (const Step& s : steps) {
        const uint32_t f = uint32_t(plans.size());
        FramePlan plan{};
        plan.capacity = s.capacity;
        plan.visible = s.visible;
        plan.order = f % 2 == 0 ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING; // back to front, or front to back
        plan.beginBit = f % 4 >= 2 ? 4 : 0;
        plan.quantizedDepths = f % 3 == 1;
        plan.countByFill = f % 3 == 2;
        plans.push_back(plan);
    }
    return plans;
}

// The scene of `frame`: depths in [1, 100) for every splat, indices as values.
void makeScene(uint32_t frame, const FramePlan& plan, Pending* out) {
    hostdata::Distribution depth;
    depth.kind = hostdata::Distribution::Depth;
    hostdata::Data scene = hostdata::generate(kKey, VKSORT_VALUE_TYPE_NONE, plan.capacity, depth, 1000 + frame);
    out->sceneKeys = scene.keys;
    if (plan.quantizedDepths) {
        for (size_t i = 0; i < plan.capacity; ++i) {
            uint32_t bits = 0;
            std::memcpy(&bits, &out->sceneKeys[i * 4], 4);
            bits &= ~0xFFFu;
            std::memcpy(&out->sceneKeys[i * 4], &bits, 4);
        }
    }
    out->sceneValues.resize(size_t(plan.capacity) * 4);
    for (uint32_t i = 0; i < plan.capacity; ++i) std::memcpy(&out->sceneValues[size_t(i) * 4], &i, 4);
    const uint32_t sorted = std::min(plan.visible, plan.capacity);
    out->input.keyType = kKey;
    out->input.valueType = kValue;
    out->input.count = sorted;
    out->input.keys.assign(out->sceneKeys.begin(), out->sceneKeys.begin() + size_t(sorted) * 4);
    out->input.values.assign(out->sceneValues.begin(), out->sceneValues.begin() + size_t(sorted) * 4);
}

// A frame slot: its command buffer (re-recorded every frame it serves), its fence, its indirect
// arguments, its buffers, and what its last frame must have produced.
struct Slot {
    vkctx::Context& ctx;
    vktest::ThreadCommands commands;
    VkFence fence = VK_NULL_HANDLE;
    vkctx::Buffer args;
    std::unique_ptr<SlotBuffers> buffers;
    std::unique_ptr<Pending> pending;

    explicit Slot(vkctx::Context& context)
        : ctx(context), commands(context, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT) {
        VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        info.flags = VK_FENCE_CREATE_SIGNALED_BIT; // the first frames of the slot wait for nothing
        VKCTX_CHECK(vkCreateFence(ctx.device(), &info, nullptr, &fence));
        args = ctx.createBuffer(sizeof(IndirectArgs),
                                VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                true);
        const IndirectArgs initial = argsFor(0);
        std::memcpy(args.mapped, &initial, sizeof initial);
    }
    ~Slot() {
        // Also on a failed REQUIRE: nothing is destroyed while the GPU may use it.
        vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX);
        buffers.reset();
        ctx.destroyBuffer(args);
        vkDestroyFence(ctx.device(), fence, nullptr);
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
};

// Checks the frame `slot` last ran, whose fence has signaled.
void checkFrame(vkctx::Context& ctx, const Slot& slot, bool pushed) {
    const Pending& p = *slot.pending;
    const SlotBuffers& b = *slot.buffers;
    INFO(describe(p.frame, p.plan, pushed));
    const uint32_t sorted = p.input.count;

    // The result where vksort said it would be: the caller's ranges after 8 passes, the
    // scratch buffer after 7; either way each range has the capacity.
    CHECK(p.where.passCount == (32 - p.plan.beginBit + 3) / 4);
    REQUIRE(p.where.inScratch == (p.where.passCount % 2 == 1 ? VK_TRUE : VK_FALSE));
    CHECK(p.where.keys.buffer == (p.where.inScratch ? b.scratch.buffer.buffer : b.keys.buffer.buffer));
    CHECK(p.where.values.buffer == (p.where.inScratch ? b.scratch.buffer.buffer : b.values.buffer.buffer));
    CHECK(p.where.keys.size == VkDeviceSize(b.capacity) * 4);
    CHECK(p.where.values.size == VkDeviceSize(b.capacity) * 4);
    const uint8_t* outKeys = b.mapped(p.where.keys);
    const uint8_t* outValues = b.mapped(p.where.values);

    // std::stable_sort of the frame's visible splats: equal keys keep their input order, and
    // each key's value is the index its splat has in the scene.
    const std::vector<uint32_t> permutation =
        hostdata::referencePermutation(p.input, p.plan.order, p.plan.beginBit, 32);
    const hostdata::Verdict verdict = hostdata::verify(p.input, permutation, outKeys, outValues);
    INFO(verdict.detail);
    CHECK(verdict.ok);

    // Past the (clamped) count the sort launches no work: a result in place leaves the rest of
    // the scene as the culling stand-in wrote it. (Beside a result in scratch, the keys and
    // values ranges are undefined.)
    if (!p.where.inScratch) {
        const size_t from = size_t(sorted) * 4, to = size_t(b.capacity) * 4;
        CHECK(std::memcmp(outKeys + from, p.sceneKeys.data() + from, to - from) == 0);
        CHECK(std::memcmp(outValues + from, p.sceneValues.data() + from, to - from) == 0);
    }
    // Not a byte outside the declared ranges changed, and the count and the draw around it are
    // as the culling stand-in wrote them: the sort only reads them.
    for (const auto& named : {std::make_pair("keys", &b.keys), std::make_pair("values", &b.values),
                              std::make_pair("scratch", &b.scratch)}) {
        const std::string damage = named.second->damage(named.first);
        INFO(damage);
        CHECK(damage.empty());
    }
    const IndirectArgs expected = argsFor(p.plan.visible);
    CHECK(std::memcmp(slot.args.mapped, &expected, sizeof expected) == 0);
    vktest::requireCleanValidation(ctx);
}

// The renderer's frame loop on `ctx` with `sorter`: with push descriptors each sort takes its
// slot's buffers in pBuffers; otherwise each slot's buffer set has its bindings object.
void runFrames(vkctx::Context& ctx, VksortSorter sorter, bool pushed) {
    const VksortSorterProperties properties = vktest::properties(sorter);
    REQUIRE(((properties.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0) == pushed);
    const std::vector<FramePlan> plans = framePlans(properties);
    INFO("single-workgroup limit " << properties.singleDispatchMaxCount << ", tile " << properties.tileSize);

    std::array<std::unique_ptr<Slot>, kFramesInFlight> slots;
    for (auto& s : slots) s = std::make_unique<Slot>(ctx);
    uint32_t reallocations = 0;
    for (uint32_t frame = 0; frame < plans.size(); ++frame) {
        const FramePlan& plan = plans[frame];
        Slot& slot = *slots[frame % kFramesInFlight];
        // Frame f reuses the slot of frame f - 2 once that frame has completed.
        VKCTX_CHECK(vkWaitForFences(ctx.device(), 1, &slot.fence, VK_TRUE, UINT64_MAX));
        if (slot.pending) checkFrame(ctx, slot, pushed);

        // The scene grew: this slot's buffers (and bindings) were used by no frame but the one
        // just waited for, so they go now; the other slot's go at its next frame.
        if (!slot.buffers || slot.buffers->capacity != plan.capacity) {
            REQUIRE(vkGetFenceStatus(ctx.device(), slot.fence) == VK_SUCCESS);
            if (slot.buffers) ++reallocations;
            slot.buffers.reset();
            slot.buffers = std::make_unique<SlotBuffers>(ctx, sorter, plan.capacity, !pushed);
        }
        SlotBuffers& b = *slot.buffers;
        slot.pending = std::make_unique<Pending>();
        Pending& p = *slot.pending;
        p.frame = frame;
        p.plan = plan;
        makeScene(frame, plan, &p);
        std::memcpy(b.scene.mapped, p.sceneKeys.data(), p.sceneKeys.size());
        std::memcpy(static_cast<uint8_t*>(b.scene.mapped) + p.sceneKeys.size(), p.sceneValues.data(),
                    p.sceneValues.size());

        VksortSortInfo info{};
        info.bindings = pushed ? VK_NULL_HANDLE : b.bindings;
        info.pBuffers = pushed ? &b.buffers : nullptr;
        info.count = 0; // ignored: the count is read on the GPU
        info.order = plan.order;
        info.beginBit = plan.beginBit;
        info.endBit = VKSORT_KEY_WIDTH;
        REQUIRE(vksortGetSortResult(sorter, &info, &p.where) == VK_SUCCESS);

        VkCommandBuffer cmd = slot.commands.buffer();
        VKCTX_CHECK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VKCTX_CHECK(vkBeginCommandBuffer(cmd, &begin));
        // The culling stand-in: transfer writes of the depths and indices into the keys and
        // values ranges, and of the visible count into the draw's instanceCount.
        const VkBufferCopy keyCopy{0, b.keys.offset, p.sceneKeys.size()};
        const VkBufferCopy valueCopy{p.sceneKeys.size(), b.values.offset, p.sceneValues.size()};
        vkCmdCopyBuffer(cmd, b.scene.buffer, b.keys.buffer.buffer, 1, &keyCopy);
        vkCmdCopyBuffer(cmd, b.scene.buffer, b.values.buffer.buffer, 1, &valueCopy);
        if (plan.countByFill) {
            vkCmdFillBuffer(cmd, slot.args.buffer, kCountOffset, 4, plan.visible);
        } else {
            const VkDrawIndexedIndirectCommand draw = argsFor(plan.visible).draw;
            vkCmdUpdateBuffer(cmd, slot.args.buffer, 0, sizeof draw, &draw);
        }
        // The documented barrier before an indirect sort, for either kind of sorter: keys and
        // values to the sort's compute reads and writes, the count to a compute read (pushed
        // descriptors) and a transfer read (the copy a sorter without them records).
        vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
        VksortSortResult recorded{};
        REQUIRE(vksortCmdSortIndirect(cmd, sorter, &info, slot.args.buffer, kCountOffset, &recorded) == VK_SUCCESS);
        CHECK(recorded.passCount == p.where.passCount);
        CHECK(recorded.inScratch == p.where.inScratch);
        CHECK(recorded.keys.buffer == p.where.keys.buffer);
        CHECK(recorded.keys.offset == p.where.keys.offset);
        CHECK(recorded.values.buffer == p.where.values.buffer);
        CHECK(recorded.values.offset == p.where.values.offset);
        // The result (and the untouched arguments) to the host, which reads them after the fence.
        vktest::memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                      VK_ACCESS_HOST_READ_BIT);
        VKCTX_CHECK(vkEndCommandBuffer(cmd));

        VKCTX_CHECK(vkResetFences(ctx.device(), 1, &slot.fence));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        VKCTX_CHECK(vkQueueSubmit(ctx.queue(), 1, &submit, slot.fence));
    }
    // The last frame of each slot.
    for (uint32_t frame = uint32_t(plans.size()); frame < plans.size() + kFramesInFlight; ++frame) {
        Slot& slot = *slots[frame % kFramesInFlight];
        VKCTX_CHECK(vkWaitForFences(ctx.device(), 1, &slot.fence, VK_TRUE, UINT64_MAX));
        checkFrame(ctx, slot, pushed);
    }
    CHECK(reallocations == 3 * kFramesInFlight);
    for (auto& s : slots) s.reset();
    vktest::requireCleanValidation(ctx);
}

// A sorter for what the renderer sorts (f32 depths with u32 indices: 6 pipelines), with or
// without push descriptors whatever the context enabled.
struct Sorter {
    VksortSorter handle = VK_NULL_HANDLE;
    Sorter(vkctx::Context& ctx, bool pushed) {
        VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx);
        if (pushed) info.flags |= VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT;
        else info.flags &= ~VksortSorterCreateFlags(VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT);
        info.keyTypes = VKSORT_KEY_TYPE_BIT(kKey);
        info.valueTypes = VKSORT_VALUE_TYPE_BIT(kValue);
        vktest::MessageLog log;
        info.pfnMessageCallback = vktest::MessageLog::callback;
        info.pMessageUserData = &log;
        const VkResult result = vksortCreateSorter(&info, &handle);
        INFO("vksortCreateSorter: " << vkctx::resultName(result) << " " << log.all());
        REQUIRE(result == VK_SUCCESS);
    }
    ~Sorter() { vksortDestroySorter(handle); }
    Sorter(const Sorter&) = delete;
    Sorter& operator=(const Sorter&) = delete;
};

} // namespace

TEST_CASE("a splatting renderer: indirect counts, two frames in flight, a growing scene", "[splatting]") {
    vkctx::Context& base = vktest::context();

    SECTION("buffers at record time, through push descriptors") {
        // A device with VK_KHR_push_descriptor enabled: the process's context when ctest asked
        // for one (VKSORT_TEST_PUSH_DESCRIPTORS=1), otherwise one of its own on the same device.
        // Declared in this order so that the own context goes first and volk then points at the
        // process's context again.
        vktest::VolkScope restore(base);
        std::unique_ptr<vkctx::Context> own;
        if (!base.pushDescriptorsEnabled()) {
            vkctx::ContextOptions options;
            options.pushDescriptors = true;
            options.subgroupSizeControl = base.subgroupSizeControlEnabled();
            options.deviceName = base.properties().deviceName;
            own = std::make_unique<vkctx::Context>(options);
        }
        vkctx::Context& ctx = own ? *own : base;
        if (!ctx.pushDescriptorsEnabled()) {
            WARN("SKIPPED: " << ctx.properties().deviceName << " does not offer VK_KHR_push_descriptor");
            return;
        }
        {
            Sorter sorter(ctx, true);
            runFrames(ctx, sorter.handle, true);
        }
        vktest::requireCleanValidation(ctx);
        vktest::requireCleanValidation(base);
    }

    SECTION("a bindings object per frame slot and buffer set, as on any Vulkan 1.1 device") {
        {
            Sorter sorter(base, false);
            runFrames(base, sorter.handle, false);
        }
        vktest::requireCleanValidation(base);
    }
}
