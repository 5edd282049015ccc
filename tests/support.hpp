// SPDX-License-Identifier: MIT
// Shared machinery of vksort's GPU tests.
//
// Each Catch2 test case runs in its own process (catch_discover_tests), so the context and the
// sorters are created lazily, once per process. The Khronos validation layer with
// synchronization validation is on whenever installed; requireCleanValidation() fails a test on
// any message. VKSORT_TEST_DEVICE picks the device (index or name substring), as sort-test's
// --device does.
#pragma once

#include <vksort/vksort.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hostdata.hpp"
#include "vkcontext.hpp"

namespace vktest {

vkctx::Context& context();
// Destroys the shared sorters and context. gpu_main.cpp calls it before main returns: left to
// static destruction it ran after the NVIDIA driver's own exit handlers (the driver is loaded
// after the first test starts) and crashed the process once every test had passed.
void shutdown();

// Sorter options beyond the context's defaults.
struct SorterOptions {
    uint32_t workgroupSize = 0;
    uint32_t keysPerThread = 0;
    uint32_t requiredSubgroupSize = 0;
    // Hand vksort the command spy's vkGetDeviceProcAddr (see commandLog()).
    bool spy = false;
    // VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT.
    bool skipPasses = false;
    // VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT.
    bool segmented = false;
    // Bound descriptor sets even where the context pushes them (VKSORT_TEST_PUSH_DESCRIPTORS).
    bool boundSets = false;

    bool operator<(const SorterOptions& o) const;
    bool isDefault() const {
        return workgroupSize == 0 && keysPerThread == 0 && requiredSubgroupSize == 0 && !spy && !skipPasses &&
               !segmented && !boundSets;
    }
};

// The tile shapes (workgroup size x keys per thread) the tests use besides the default. Each
// shape's pipelines are compiled at their first dispatch on lavapipe (about a second each), so
// tests share these rather than invent their own: 16 x 16 (tile = single-workgroup limit), 64 x 5
// and 32 x 6 (keys per thread not a multiple of a 16-byte vector), 16 x 4 (a tiny tile with
// vector loads: many tiles, scan steps by ranges and grid rows for few keys).
extern const std::vector<SorterOptions> kTileShapes;

// The create info createSorter() would use, for tests that change one field and expect failure.
VksortSorterCreateInfo sorterCreateInfo(vkctx::Context& ctx, const SorterOptions& options = {});
// Creates a sorter on `ctx` (REQUIREs success); the caller destroys it.
VksortSorter createSorter(vkctx::Context& ctx, const SorterOptions& options = {});
// The process's sorter on context() with these options, created on first use and kept.
VksortSorter sorter(const SorterOptions& options = {});
VksortSorterProperties properties(VksortSorter sorter);

// The device's subgroup size control properties, when the context enabled subgroup size control
// and compute shaders can require a size; otherwise false, after a WARN saying which is missing.
bool requiredSubgroupSizes(vkctx::Context& ctx, VkPhysicalDeviceSubgroupSizeControlProperties* control);

// Fails the current test if the validation layer reported anything; prints the messages.
void requireCleanValidation(vkctx::Context& ctx = context());

// Invalid-usage reports: while a test holds an AssertRecorder, vksort's assert handler records
// messages instead of aborting (the calls then return VK_ERROR_VALIDATION_FAILED_EXT).
class AssertRecorder {
public:
    AssertRecorder();
    ~AssertRecorder();
    const std::vector<std::string>& messages() const;
    // The last message contains `text`.
    bool lastContains(const std::string& text) const;
};

// What a sorter's pfnMessageCallback received (set callback = MessageLog::callback and
// pMessageUserData = &log).
struct MessageLog {
    std::vector<std::string> messages;
    static void VKAPI_PTR callback(const char* message, void* user);
    bool contains(const std::string& text) const;
    std::string all() const; // every message, for INFO
};

// The command spy: a vkGetDeviceProcAddr that hands vksort counting wrappers of the commands it
// records and of the descriptor-pool and pipeline creation, so a test can see what a call did:
// nothing at all after invalid usage, or a grid split into rows past 65535 workgroups.
// (One log per process: the tests are single-threaded where they read it. The sorter creates its
// pipelines on several threads; their count is added under a lock, and read after they joined.)
struct CommandLog {
    uint32_t commands = 0;                         // every vkCmd* call
    std::vector<std::array<uint32_t, 3>> dispatches; // vkCmdDispatch group counts, in order
    uint32_t indirectDispatches = 0;               // vkCmdDispatchIndirect calls
    uint32_t descriptorPools = 0;                  // vkCreateDescriptorPool calls
    uint32_t pipelines = 0;                        // pipelines requested from vkCreateComputePipelines
    // The binds, dispatches and barriers, in the order recorded: what the validation layer cannot
    // check (its synchronization validation in Debian 12 counts shader reads as uniform reads).
    struct Event {
        enum Kind { BindPipeline, BindSet, Dispatch, DispatchIndirect, Barrier } kind;
        VkPipeline pipeline = VK_NULL_HANDLE;   // BindPipeline
        VkDescriptorSet set = VK_NULL_HANDLE;   // BindSet: the set bound at set 0
        VkAccessFlags dstAccess = 0;            // Barrier: every memory barrier's, ORed
        VkPipelineStageFlags dstStages = 0;     // Barrier
    };
    std::vector<Event> events;
};
CommandLog& commandLog();
PFN_vkGetDeviceProcAddr spyGetDeviceProcAddr();

// A command pool with one primary command buffer: what each recording thread needs of its own
// (Vulkan forbids recording from two threads into buffers of one pool). Destroys the pool.
class ThreadCommands {
public:
    ThreadCommands(vkctx::Context& ctx, VkCommandPoolCreateFlags flags = 0);
    ~ThreadCommands();
    ThreadCommands(const ThreadCommands&) = delete;
    ThreadCommands& operator=(const ThreadCommands&) = delete;
    VkCommandBuffer buffer() const { return buffer_; }

private:
    vkctx::Context& ctx_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer buffer_ = VK_NULL_HANDLE;
};

// One global memory barrier.
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
                   VkAccessFlags dstAccess);
// Barriers a test records around GPU work on host-visible buffers (memory barriers, global).
void hostToCompute(VkCommandBuffer cmd);
void computeToHost(VkCommandBuffer cmd);
void computeToCompute(VkCommandBuffer cmd);
void computeToTransfer(VkCommandBuffer cmd);
void transferToCompute(VkCommandBuffer cmd);

// Keys, values and scratch ranges for one VksortBindings, each in its own host-visible buffer
// between guard bands of canary bytes (at least 64 bytes and whole alignment units each side;
// offsetUnits moves the range further in). Buffers the format does not use are absent.
class BindingsRig {
public:
    BindingsRig(vkctx::Context& ctx, VksortSorter sorter, VksortKeyType key, VksortValueType value, uint32_t maxCount,
                uint32_t offsetUnits = 1);
    ~BindingsRig();
    BindingsRig(const BindingsRig&) = delete;
    BindingsRig& operator=(const BindingsRig&) = delete;

    VksortBindings bindings() const { return bindings_; }
    // The buffers as vksortCreateBindings took them (what a sort's pBuffers gives instead).
    const VksortBindingsCreateInfo& buffers() const { return buffers_; }
    // A sort of these ranges: given at record time where `pushed`, else through the bindings.
    VksortSortInfo sortInfo(bool pushed, uint32_t count, VksortOrder order, uint32_t beginBit, uint32_t endBit) const {
        VksortSortInfo info{};
        info.bindings = pushed ? VK_NULL_HANDLE : bindings_;
        info.pBuffers = pushed ? &buffers_ : nullptr;
        info.count = count;
        info.order = order;
        info.beginBit = beginBit;
        info.endBit = endBit;
        return info;
    }
    const VksortMemoryRequirements& requirements() const { return requirements_; }
    uint32_t maxCount() const { return maxCount_; }
    // The start of each range, mapped.
    uint8_t* keys() const { return range(keys_); }
    uint8_t* values() const { return range(values_); }
    uint8_t* scratch() const { return range(scratch_); }
    // Their sizes in bytes (as required; 0 for a range the format does not use).
    size_t keysSize() const { return size_t(keys_.size); }
    size_t valuesSize() const { return size_t(values_.size); }
    size_t scratchSize() const { return size_t(scratch_.size); }
    // The caller's keys and values ranges as handed to vksortCreateBindings.
    VksortBufferRange keysRange() const { return {keys_.buffer.buffer, keys_.offset, keys_.size}; }
    VksortBufferRange valuesRange() const { return {values_.buffer.buffer, values_.offset, values_.size}; }
    VksortBufferRange scratchRange() const { return {scratch_.buffer.buffer, scratch_.offset, scratch_.size}; }
    VkBuffer keysBuffer() const { return keys_.buffer.buffer; }
    VkBuffer valuesBuffer() const { return values_.buffer.buffer; }
    VkBuffer scratchBuffer() const { return scratch_.buffer.buffer; }
    // A range vksort reported (vksortGetSortResult), mapped; REQUIREs that it lies in one of ours.
    uint8_t* mapped(const VksortBufferRange& range) const;
    // Copies `input` to the start of the keys (and values) ranges.
    void load(const hostdata::Data& input) const;
    // Empty when every canary byte outside the ranges is intact; otherwise where the first is not.
    std::string guardDamage() const;

private:
    struct Guarded {
        vkctx::Buffer buffer;
        VkDeviceSize offset = 0, size = 0;
    };
    Guarded makeGuarded(const VksortBufferRequirements& need, uint32_t offsetUnits);
    static uint8_t* range(const Guarded& g) { return g.size == 0 ? nullptr : static_cast<uint8_t*>(g.buffer.mapped) + g.offset; }

    vkctx::Context& ctx_;
    VksortSorter sorter_;
    uint32_t maxCount_;
    VksortMemoryRequirements requirements_{};
    Guarded keys_, values_, scratch_;
    VksortBindingsCreateInfo buffers_{};
    VksortBindings bindings_ = VK_NULL_HANDLE;
};

// Sorts `input`, loaded into `rig`, with vksortCmdSortIndirect (through the bindings, or at
// record time where `pushed`), the count `count` written first into the host-visible
// `countBuffer` (clamped to the rig's capacity by the sort); checks the result against `input`
// sorted on the host, and the guard bands.
void sortIndirectAndCheck(vkctx::Context& ctx, VksortSorter sorter, BindingsRig& rig, const hostdata::Data& input,
                          const vkctx::Buffer& countBuffer, uint32_t count, bool pushed, VksortOrder order,
                          uint32_t beginBit, uint32_t endBit);

// One sort, described the way sort-test's options describe it.
struct Case {
    VksortKeyType key = VKSORT_KEY_TYPE_UINT32;
    VksortValueType value = VKSORT_VALUE_TYPE_NONE;
    uint32_t count = 0;
    hostdata::Distribution dist{};
    VksortOrder order = VKSORT_ORDER_ASCENDING;
    uint32_t beginBit = 0, endBit = 0;
    uint64_t seed = 1;
    // Capacity of the buffers (0: count). Buffers hold maxCount elements; count may be less.
    uint32_t maxCount = 0;
    // Extra bytes before each range inside its VkBuffer, in units of the range's required
    // alignment (guard bands are always there, this moves the ranges further in).
    uint32_t offsetUnits = 1;
    // The sorter: the process's sorter with these options (sortAndCheck's sorter argument, when
    // given, wins; then these only describe it).
    SorterOptions sorter{};

    // The equivalent sort-test command line, with what sort-test cannot express (a capacity
    // above the count, ranges deeper inside their buffers) said after it.
    std::string describe() const;
};

// What a checked sort produced, for tests that check more.
struct SortOutput {
    hostdata::Data input;
    std::vector<uint8_t> keys, values; // the first count keys and values of the result
    VksortSortResult where{};
};

// Sorts `c` on the GPU (input from hostdata::generate, or `input`), each buffer range surrounded
// by canary guard bands, and checks: keys and values equal std::stable_sort's order (so the
// output is a permutation of the input and equal keys kept their order), not a byte outside the
// declared ranges changed, the result lies where vksortGetSortResult says, and the validation
// layer stayed silent. Uses Catch2 REQUIREs; the failure message names the sort-test command.
// With VKSORT_TEST_TIMING set, each generated sort's wall time goes to stderr.
SortOutput sortAndCheck(const Case& c, VksortSorter sorter = VK_NULL_HANDLE, vkctx::Context* ctx = nullptr);
SortOutput sortAndCheck(const Case& c, const hostdata::Data& input, VksortSorter sorter = VK_NULL_HANDLE,
                        vkctx::Context* ctx = nullptr);

// Common distributions, for loops.
hostdata::Distribution dist(hostdata::Distribution::Kind kind, uint32_t parameter = 0);
const std::vector<VksortKeyType>& allKeyTypes();
const std::vector<VksortValueType>& allValueTypes();

// Makes volk's global functions those of `ctx` while it lives (tests that open a second
// context), then those of the process's context (context()) again.
class VolkScope {
public:
    explicit VolkScope(vkctx::Context& ctx);
    ~VolkScope();
};

} // namespace vktest
