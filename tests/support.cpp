// SPDX-License-Identifier: MIT
#include "support.hpp"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "guard.hpp"
#include "toolutil.hpp"

namespace vktest {

namespace {

vkctx::ContextOptions defaultOptions() {
    vkctx::ContextOptions options;
    // Devices are created as the README does, without subgroup size control; ctest also runs
    // the GPU suite with it (VKSORT_TEST_SUBGROUP_SIZE_CONTROL=1, tests/CMakeLists.txt).
    if (const char* control = std::getenv("VKSORT_TEST_SUBGROUP_SIZE_CONTROL")) {
        options.subgroupSizeControl = std::strcmp(control, "0") != 0;
    }
    // ... and with push descriptors, every sort taking its buffers at record time
    // (VKSORT_TEST_PUSH_DESCRIPTORS=1).
    if (const char* push = std::getenv("VKSORT_TEST_PUSH_DESCRIPTORS")) {
        options.pushDescriptors = std::strcmp(push, "0") != 0;
    }
    if (const char* device = std::getenv("VKSORT_TEST_DEVICE")) {
        char* end = nullptr;
        long index = std::strtol(device, &end, 10);
        if (end != device && *end == '\0') options.deviceIndex = int(index);
        else options.deviceName = device;
    }
    return options;
}

void VKAPI_PTR failOnAssert(const char* message, void*) {
    // An assert no test expected: report it as a failure of the running test.
    FAIL("vksort assert: " << message);
}

// The Vulkan loader unloads the validation layer at vkDestroyInstance, so LeakSanitizer (at
// exit) reports what the layer itself leaks from "<unknown module>", which no suppression can
// name. Keeping the layer mapped lets tests/lsan.supp name it; vksort's own leaks still show.
// Done at start-up, so that tests which open their own context are covered too.
[[maybe_unused]] const bool g_layerPinned = dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NODELETE) != nullptr;
// The same for lavapipe (Mesa's CPU driver, the device in CI): once the loader has unloaded it,
// memory its globals still point to at exit (128 bytes) reads as a leak from "<unknown module>";
// kept mapped, it is reachable and nothing is reported. Absent elsewhere, which is harmless.
[[maybe_unused]] const bool g_driverPinned = dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE) != nullptr;

struct Process {
    Process() { vksortSetAssertHandler(failOnAssert, nullptr); }
    ~Process() { release(); }
    void release() {
        // Sorters before the device they were created on.
        for (auto& entry : sorters) vksortDestroySorter(entry.second);
        sorters.clear();
        context.reset();
    }
    std::unique_ptr<vkctx::Context> context;
    std::map<SorterOptions, VksortSorter> sorters;
};

Process& process() {
    static Process p;
    return p;
}

std::vector<std::string> g_asserts;

void VKAPI_PTR recordAssert(const char* message, void*) { g_asserts.emplace_back(message); }

// ---- The command spy ----------------------------------------------------------------------

CommandLog g_log;
std::mutex g_pipelinesLock; // vksortCreateSorter creates pipelines on several threads
PFN_vkCmdBindPipeline realBindPipeline;
PFN_vkCmdBindDescriptorSets realBindDescriptorSets;
PFN_vkCmdPushConstants realPushConstants;
PFN_vkCmdDispatch realDispatch;
PFN_vkCmdPipelineBarrier realPipelineBarrier;
PFN_vkCmdWriteTimestamp realWriteTimestamp;
PFN_vkCmdDispatchIndirect realDispatchIndirect;
PFN_vkCmdCopyBuffer realCopyBuffer;
PFN_vkCreateDescriptorPool realCreateDescriptorPool;
PFN_vkCreateComputePipelines realCreateComputePipelines;

VKAPI_ATTR void VKAPI_CALL spyBindPipeline(VkCommandBuffer cmd, VkPipelineBindPoint point, VkPipeline pipeline) {
    ++g_log.commands;
    CommandLog::Event e{CommandLog::Event::BindPipeline};
    e.pipeline = pipeline;
    g_log.events.push_back(e);
    realBindPipeline(cmd, point, pipeline);
}

VKAPI_ATTR void VKAPI_CALL spyBindDescriptorSets(VkCommandBuffer cmd, VkPipelineBindPoint point, VkPipelineLayout layout,
                                                 uint32_t first, uint32_t count, const VkDescriptorSet* sets,
                                                 uint32_t dynamicCount, const uint32_t* dynamicOffsets) {
    ++g_log.commands;
    if (first == 0 && count > 0) {
        CommandLog::Event e{CommandLog::Event::BindSet};
        e.set = sets[0];
        g_log.events.push_back(e);
    }
    realBindDescriptorSets(cmd, point, layout, first, count, sets, dynamicCount, dynamicOffsets);
}

VKAPI_ATTR void VKAPI_CALL spyPushConstants(VkCommandBuffer cmd, VkPipelineLayout layout, VkShaderStageFlags stages,
                                            uint32_t offset, uint32_t size, const void* values) {
    ++g_log.commands;
    realPushConstants(cmd, layout, stages, offset, size, values);
}

VKAPI_ATTR void VKAPI_CALL spyDispatch(VkCommandBuffer cmd, uint32_t x, uint32_t y, uint32_t z) {
    ++g_log.commands;
    g_log.dispatches.push_back({x, y, z});
    g_log.events.push_back(CommandLog::Event{CommandLog::Event::Dispatch});
    realDispatch(cmd, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL spyPipelineBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                                              VkDependencyFlags flags, uint32_t memoryCount,
                                              const VkMemoryBarrier* memory, uint32_t bufferCount,
                                              const VkBufferMemoryBarrier* buffers, uint32_t imageCount,
                                              const VkImageMemoryBarrier* images) {
    ++g_log.commands;
    CommandLog::Event e{CommandLog::Event::Barrier};
    for (uint32_t i = 0; i < memoryCount; ++i) e.dstAccess |= memory[i].dstAccessMask;
    e.dstStages = dst;
    g_log.events.push_back(e);
    realPipelineBarrier(cmd, src, dst, flags, memoryCount, memory, bufferCount, buffers, imageCount, images);
}

VKAPI_ATTR void VKAPI_CALL spyWriteTimestamp(VkCommandBuffer cmd, VkPipelineStageFlagBits stage, VkQueryPool pool,
                                             uint32_t query) {
    ++g_log.commands;
    realWriteTimestamp(cmd, stage, pool, query);
}

VKAPI_ATTR void VKAPI_CALL spyDispatchIndirect(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset) {
    ++g_log.commands;
    ++g_log.indirectDispatches;
    g_log.events.push_back(CommandLog::Event{CommandLog::Event::DispatchIndirect});
    realDispatchIndirect(cmd, buffer, offset);
}

VKAPI_ATTR void VKAPI_CALL spyCopyBuffer(VkCommandBuffer cmd, VkBuffer source, VkBuffer destination, uint32_t count,
                                         const VkBufferCopy* regions) {
    ++g_log.commands;
    realCopyBuffer(cmd, source, destination, count, regions);
}

VKAPI_ATTR VkResult VKAPI_CALL spyCreateDescriptorPool(VkDevice device, const VkDescriptorPoolCreateInfo* info,
                                                       const VkAllocationCallbacks* allocator, VkDescriptorPool* pool) {
    ++g_log.descriptorPools;
    return realCreateDescriptorPool(device, info, allocator, pool);
}

VKAPI_ATTR VkResult VKAPI_CALL spyCreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                         const VkComputePipelineCreateInfo* infos,
                                                         const VkAllocationCallbacks* allocator,
                                                         VkPipeline* pipelines) {
    {
        std::lock_guard<std::mutex> lock(g_pipelinesLock);
        g_log.pipelines += count;
    }
    return realCreateComputePipelines(device, cache, count, infos, allocator, pipelines);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL spyGetDeviceProcAddrImpl(VkDevice device, const char* name) {
    PFN_vkVoidFunction real = vkGetDeviceProcAddr(device, name);
    if (real == nullptr) return nullptr;
#define VKTEST_SPY(function, wrapper, store)                                     \
    if (std::strcmp(name, #function) == 0) {                                     \
        store = reinterpret_cast<PFN_##function>(real);                          \
        return reinterpret_cast<PFN_vkVoidFunction>(wrapper);                    \
    }
    VKTEST_SPY(vkCmdBindPipeline, spyBindPipeline, realBindPipeline)
    VKTEST_SPY(vkCmdBindDescriptorSets, spyBindDescriptorSets, realBindDescriptorSets)
    VKTEST_SPY(vkCmdPushConstants, spyPushConstants, realPushConstants)
    VKTEST_SPY(vkCmdDispatch, spyDispatch, realDispatch)
    VKTEST_SPY(vkCmdPipelineBarrier, spyPipelineBarrier, realPipelineBarrier)
    VKTEST_SPY(vkCmdWriteTimestamp, spyWriteTimestamp, realWriteTimestamp)
    VKTEST_SPY(vkCmdDispatchIndirect, spyDispatchIndirect, realDispatchIndirect)
    VKTEST_SPY(vkCmdCopyBuffer, spyCopyBuffer, realCopyBuffer)
    VKTEST_SPY(vkCreateDescriptorPool, spyCreateDescriptorPool, realCreateDescriptorPool)
    VKTEST_SPY(vkCreateComputePipelines, spyCreateComputePipelines, realCreateComputePipelines)
#undef VKTEST_SPY
    // Any other vkCmd* vksort might start to use would escape the count: refuse to hand it out,
    // so that sorter creation fails loudly and this list gets updated.
    if (std::strncmp(name, "vkCmd", 5) == 0) return nullptr;
    return real;
}

} // namespace

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags srcAccess, VkPipelineStageFlags dst,
                   VkAccessFlags dstAccess) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = srcAccess;
    barrier.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void shutdown() { process().release(); }

vkctx::Context& context() {
    Process& p = process();
    if (!p.context) p.context = std::make_unique<vkctx::Context>(defaultOptions());
    return *p.context;
}

bool SorterOptions::operator<(const SorterOptions& o) const {
    return std::tie(workgroupSize, keysPerThread, requiredSubgroupSize, spy, skipPasses, segmented, boundSets) <
           std::tie(o.workgroupSize, o.keysPerThread, o.requiredSubgroupSize, o.spy, o.skipPasses, o.segmented,
                    o.boundSets);
}

const std::vector<SorterOptions> kTileShapes = {SorterOptions{16, 16}, SorterOptions{64, 5}, SorterOptions{32, 6},
                                                SorterOptions{16, 4}};

VksortSorterCreateInfo sorterCreateInfo(vkctx::Context& ctx, const SorterOptions& options) {
    VksortSorterCreateInfo info = vkctx::sorterCreateInfo(ctx);
    // The spy logs descriptor-set binds: a spied sorter binds sets rather than pushing them.
    if (options.spy) {
        info.pfnGetDeviceProcAddr = spyGetDeviceProcAddr();
        info.flags &= ~VkFlags(VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT);
    }
    info.workgroupSize = options.workgroupSize;
    info.keysPerThread = options.keysPerThread;
    info.requiredSubgroupSize = options.requiredSubgroupSize;
    if (options.skipPasses) info.flags |= VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT;
    if (options.segmented) info.flags |= VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT;
    if (options.boundSets) info.flags &= ~VkFlags(VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT);
    return info;
}

VksortSorter createSorter(vkctx::Context& ctx, const SorterOptions& options) {
    VksortSorterCreateInfo info = sorterCreateInfo(ctx, options);
    MessageLog log;
    info.pfnMessageCallback = MessageLog::callback;
    info.pMessageUserData = &log;
    VksortSorter sorter = VK_NULL_HANDLE;
    VkResult result = vksortCreateSorter(&info, &sorter);
    INFO("vksortCreateSorter: " << vkctx::resultName(result) << " " << log.all());
    REQUIRE(result == VK_SUCCESS);
    return sorter;
}

VksortSorter sorter(const SorterOptions& options) {
    Process& p = process();
    auto it = p.sorters.find(options);
    if (it != p.sorters.end()) return it->second;
    VksortSorter s = createSorter(context(), options);
    p.sorters[options] = s;
    return s;
}

VksortSorterProperties properties(VksortSorter s) {
    VksortSorterProperties p{};
    vksortGetSorterProperties(s, &p);
    return p;
}

bool requiredSubgroupSizes(vkctx::Context& ctx, VkPhysicalDeviceSubgroupSizeControlProperties* control) {
    if (!ctx.subgroupSizeControlEnabled()) {
        WARN("the device has no subgroup size control");
        return false;
    }
    *control = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = control;
    vkGetPhysicalDeviceProperties2(ctx.physicalDevice(), &properties);
    if ((control->requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) {
        WARN("the device cannot require a subgroup size in compute shaders");
        return false;
    }
    return true;
}

void requireCleanValidation(vkctx::Context& ctx) {
    std::vector<std::string> messages = ctx.validationMessages();
    for (const std::string& m : messages) UNSCOPED_INFO("validation: " << m);
    REQUIRE(messages.empty());
}

AssertRecorder::AssertRecorder() {
    process(); // its first construction installs failOnAssert: before ours, not after
    g_asserts.clear();
    vksortSetAssertHandler(recordAssert, nullptr);
}

AssertRecorder::~AssertRecorder() { vksortSetAssertHandler(failOnAssert, nullptr); }

const std::vector<std::string>& AssertRecorder::messages() const { return g_asserts; }

bool AssertRecorder::lastContains(const std::string& text) const {
    return !g_asserts.empty() && g_asserts.back().find(text) != std::string::npos;
}

void VKAPI_PTR MessageLog::callback(const char* message, void* user) {
    static_cast<MessageLog*>(user)->messages.emplace_back(message);
}

bool MessageLog::contains(const std::string& text) const {
    for (const std::string& m : messages) {
        if (m.find(text) != std::string::npos) return true;
    }
    return false;
}

std::string MessageLog::all() const {
    std::string s;
    for (const std::string& m : messages) s += "[" + m + "] ";
    return s;
}

CommandLog& commandLog() { return g_log; }

PFN_vkGetDeviceProcAddr spyGetDeviceProcAddr() { return spyGetDeviceProcAddrImpl; }

ThreadCommands::ThreadCommands(vkctx::Context& ctx, VkCommandPoolCreateFlags flags) : ctx_(ctx) {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = ctx.queueFamily();
    poolInfo.flags = flags;
    VKCTX_CHECK(vkCreateCommandPool(ctx.device(), &poolInfo, nullptr, &pool_));
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VKCTX_CHECK(vkAllocateCommandBuffers(ctx.device(), &allocate, &buffer_));
}

ThreadCommands::~ThreadCommands() { vkDestroyCommandPool(ctx_.device(), pool_, nullptr); }

void hostToCompute(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void computeToHost(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                  VK_ACCESS_HOST_READ_BIT);
}

void computeToCompute(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void computeToTransfer(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

void transferToCompute(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

// ---- BindingsRig ------------------------------------------------------------------------------

BindingsRig::BindingsRig(vkctx::Context& ctx, VksortSorter sorter, VksortKeyType key, VksortValueType value,
                         uint32_t maxCount, uint32_t offsetUnits)
    : ctx_(ctx), sorter_(sorter), maxCount_(maxCount) {
    VksortMemoryRequirementsInfo info{nullptr, maxCount, key, value};
    REQUIRE(vksortGetMemoryRequirements(sorter, &info, &requirements_) == VK_SUCCESS);
    keys_ = makeGuarded(requirements_.keys, offsetUnits);
    values_ = makeGuarded(requirements_.values, offsetUnits);
    scratch_ = makeGuarded(requirements_.scratch, offsetUnits);

    VksortBindingsCreateInfo b{};
    b.maxCount = maxCount;
    b.keyType = key;
    b.valueType = value;
    b.keys = {keys_.buffer.buffer, keys_.offset, keys_.size};
    if (values_.size != 0) b.values = {values_.buffer.buffer, values_.offset, values_.size};
    b.scratch = {scratch_.buffer.buffer, scratch_.offset, scratch_.size};
    buffers_ = b;
    REQUIRE(vksortCreateBindings(sorter, &b, &bindings_) == VK_SUCCESS);
}

BindingsRig::~BindingsRig() {
    vksortDestroyBindings(sorter_, bindings_);
    for (Guarded* g : {&keys_, &values_, &scratch_}) ctx_.destroyBuffer(g->buffer);
}

BindingsRig::Guarded BindingsRig::makeGuarded(const VksortBufferRequirements& need, uint32_t offsetUnits) {
    Guarded g;
    if (need.size == 0) return g;
    VkDeviceSize band = toolutil::alignUp(64, need.alignment);
    g.offset = band * offsetUnits;
    g.size = need.size;
    g.buffer = ctx_.createBuffer(g.offset + g.size + band, need.usage, true);
    guard::fill(g.buffer.mapped, g.buffer.size);
    return g;
}

uint8_t* BindingsRig::mapped(const VksortBufferRange& r) const {
    for (const Guarded* g : {&keys_, &values_, &scratch_}) {
        if (g->size != 0 && r.buffer == g->buffer.buffer) {
            REQUIRE(r.offset >= g->offset);
            REQUIRE(r.offset + r.size <= g->offset + g->size);
            return static_cast<uint8_t*>(g->buffer.mapped) + r.offset;
        }
    }
    FAIL("a range in none of the rig's buffers");
    return nullptr;
}

void BindingsRig::load(const hostdata::Data& input) const {
    if (!input.keys.empty()) std::memcpy(keys(), input.keys.data(), input.keys.size());
    if (!input.values.empty()) std::memcpy(values(), input.values.data(), input.values.size());
}

std::string BindingsRig::guardDamage() const {
    const char* names[] = {"keys", "values", "scratch"};
    const Guarded* all[] = {&keys_, &values_, &scratch_};
    for (int k = 0; k < 3; ++k) {
        const Guarded& g = *all[k];
        if (g.size == 0) continue;
        guard::Damage d = guard::check(g.buffer.mapped, g.buffer.size, {{g.offset, g.size}});
        if (d.count != 0) {
            return std::to_string(d.count) + " guard band bytes changed, the first at byte " + std::to_string(d.first) +
                   " of the " + names[k] + " buffer, whose range is [" + std::to_string(g.offset) + ", " +
                   std::to_string(g.offset + g.size) + ")";
        }
    }
    return "";
}

void sortIndirectAndCheck(vkctx::Context& ctx, VksortSorter sorter, BindingsRig& rig, const hostdata::Data& input,
                          const vkctx::Buffer& countBuffer, uint32_t count, bool pushed, VksortOrder order,
                          uint32_t beginBit, uint32_t endBit) {
    rig.load(input);
    *static_cast<uint32_t*>(countBuffer.mapped) = count; // (the submission makes it visible)
    VksortSortInfo sort = rig.sortInfo(pushed, 0, order, beginBit, endBit);
    VksortSortResult where{};
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        hostToCompute(cmd);
        REQUIRE(vksortCmdSortIndirect(cmd, sorter, &sort, countBuffer.buffer, 0, &where) == VK_SUCCESS);
        computeToHost(cmd);
    });
    auto permutation = hostdata::referencePermutation(input, order, beginBit, endBit);
    hostdata::Verdict verdict = hostdata::verify(input, permutation, rig.mapped(where.keys), rig.mapped(where.values));
    INFO(verdict.detail);
    CHECK(verdict.ok);
    CHECK(rig.guardDamage().empty());
}

// ---- Cases --------------------------------------------------------------------------------------

std::string Case::describe() const {
    std::string s;
    if (const char* width = std::getenv("LP_NATIVE_VECTOR_WIDTH")) s += std::string("LP_NATIVE_VECTOR_WIDTH=") + width + " ";
    s += "sort-test --count " + std::to_string(count) + " --key " + hostdata::toString(key) + " --value " +
         hostdata::toString(value) + " --dist " + hostdata::toString(dist) + " --order " +
         (order == VKSORT_ORDER_ASCENDING ? "asc" : "desc") + " --seed " + std::to_string(seed);
    if (beginBit != 0 || endBit != 0) s += " --bits " + std::to_string(beginBit) + ":" + std::to_string(endBit);
    if (sorter.workgroupSize != 0) s += " --workgroup-size " + std::to_string(sorter.workgroupSize);
    if (sorter.keysPerThread != 0) s += " --keys-per-thread " + std::to_string(sorter.keysPerThread);
    if (sorter.requiredSubgroupSize != 0) s += " --subgroup-size " + std::to_string(sorter.requiredSubgroupSize);
    if (sorter.skipPasses) s += " --skip-constant-digits";
    std::string inexpressible;
    if (maxCount > count) inexpressible += " bindings for " + std::to_string(maxCount) + " elements;";
    if (offsetUnits != 1) {
        inexpressible += " each range " + std::to_string(offsetUnits) + " guard-band units into its buffer;";
    }
    if (!inexpressible.empty()) {
        inexpressible.pop_back();
        s += "   (sort-test cannot also reproduce:" + inexpressible + ")";
    }
    return s;
}

SortOutput sortAndCheck(const Case& c, VksortSorter s, vkctx::Context* ctx) {
    const auto start = std::chrono::steady_clock::now();
    SortOutput out = sortAndCheck(c, hostdata::generate(c.key, c.value, c.count, c.dist, c.seed), s, ctx);
    if (std::getenv("VKSORT_TEST_TIMING") != nullptr) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "%.3f s: %s\n", seconds, c.describe().c_str());
    }
    return out;
}

SortOutput sortAndCheck(const Case& c, const hostdata::Data& input, VksortSorter s, vkctx::Context* ctxPointer) {
    vkctx::Context& ctx = ctxPointer != nullptr ? *ctxPointer : context();
    if (s == VK_NULL_HANDLE) s = sorter(c.sorter);
    INFO("reproduce with: " << c.describe());
    REQUIRE(input.count == c.count);
    REQUIRE(input.keyType == c.key);
    REQUIRE(input.valueType == c.value);
    uint32_t capacity = std::max({c.maxCount, c.count, 1u});
    BindingsRig rig(ctx, s, c.key, c.value, capacity, c.offsetUnits);
    rig.load(input);

    // As the README's snippet sorts where the sorter pushes its descriptors: the buffers given
    // at record time; otherwise through the bindings object.
    const bool pushed = (properties(s).flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) != 0;
    VksortSortInfo info = rig.sortInfo(pushed, c.count, c.order, c.beginBit, c.endBit);
    SortOutput out;
    REQUIRE(vksortGetSortResult(s, &info, &out.where) == VK_SUCCESS);
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        hostToCompute(cmd);
        VksortSortResult recorded{};
        REQUIRE(vksortCmdSort(cmd, s, &info, &recorded) == VK_SUCCESS);
        REQUIRE(recorded.inScratch == out.where.inScratch);
        REQUIRE(recorded.passCount == out.where.passCount);
        computeToHost(cmd);
    });

    // The result where vksort says it is: the caller's ranges for an even pass count, the
    // scratch for an odd one (VksortSortResult).
    const uint32_t endBit = c.endBit == 0 ? hostdata::keyBits(c.key) : c.endBit;
    CHECK(out.where.passCount == (endBit - c.beginBit + 3) / 4); // one pass per 4 bits, rounded up
    REQUIRE(out.where.inScratch == (out.where.passCount % 2 == 1 ? VK_TRUE : VK_FALSE));
    CHECK(out.where.keys.size == uint64_t(capacity) * vksortKeySize(c.key)); // "the bindings' capacity"
    const uint8_t* outKeys = rig.mapped(out.where.keys);
    CHECK(out.where.keys.buffer == (out.where.inScratch ? rig.scratchBuffer() : rig.keysBuffer()));
    CHECK((outKeys == rig.keys()) == !out.where.inScratch);
    const uint8_t* outValues = nullptr;
    if (rig.requirements().values.size != 0) {
        CHECK(out.where.values.size == uint64_t(capacity) * vksortValueSize(c.value));
        outValues = rig.mapped(out.where.values);
        CHECK(out.where.values.buffer == (out.where.inScratch ? rig.scratchBuffer() : rig.valuesBuffer()));
        CHECK((outValues == rig.values()) == !out.where.inScratch);
    } else {
        REQUIRE(out.where.values.buffer == VK_NULL_HANDLE);
    }
    std::vector<uint32_t> permutation = hostdata::referencePermutation(input, c.order, c.beginBit, c.endBit);
    hostdata::Verdict verdict = hostdata::verify(input, permutation, outKeys, outValues);
    INFO(verdict.detail);
    CHECK(verdict.ok);

    // Not one byte outside the declared ranges changed.
    std::string damage = rig.guardDamage();
    INFO(damage);
    CHECK(damage.empty());

    out.keys.assign(outKeys, outKeys + size_t(c.count) * vksortKeySize(c.key));
    if (outValues != nullptr) out.values.assign(outValues, outValues + size_t(c.count) * vksortValueSize(c.value));
    out.input = input;
    requireCleanValidation(ctx);
    return out;
}

hostdata::Distribution dist(hostdata::Distribution::Kind kind, uint32_t parameter) {
    hostdata::Distribution d;
    d.kind = kind;
    d.parameter = parameter;
    return d;
}

const std::vector<VksortKeyType>& allKeyTypes() {
    static const std::vector<VksortKeyType> types = {VKSORT_KEY_TYPE_UINT32, VKSORT_KEY_TYPE_INT32,
                                                     VKSORT_KEY_TYPE_FLOAT32, VKSORT_KEY_TYPE_UINT64,
                                                     VKSORT_KEY_TYPE_INT64, VKSORT_KEY_TYPE_FLOAT64};
    return types;
}

const std::vector<VksortValueType>& allValueTypes() {
    static const std::vector<VksortValueType> types = {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32,
                                                       VKSORT_VALUE_TYPE_UINT64, VKSORT_VALUE_TYPE_INDEX};
    return types;
}

VolkScope::VolkScope(vkctx::Context& ctx) {
    volkLoadInstance(ctx.instance());
    volkLoadDevice(ctx.device());
}

VolkScope::~VolkScope() {
    // The process's context, not whatever was loaded before: a context a test created and
    // destroyed may have left volk pointing at its instance.
    volkLoadInstance(context().instance());
    volkLoadDevice(context().device());
}

} // namespace vktest
