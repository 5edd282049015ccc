#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

namespace vktest {

namespace {

vkctx::ContextOptions defaultOptions() {
    vkctx::ContextOptions options;
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

struct Process {
    Process() { vksortSetAssertHandler(failOnAssert, nullptr); }
    // The sorter goes before the device it was created on.
    ~Process() {
        if (sorter != VK_NULL_HANDLE) vksortDestroySorter(sorter);
        context.reset();
    }
    std::unique_ptr<vkctx::Context> context;
    VksortSorter sorter = VK_NULL_HANDLE;
};

Process& process() {
    static Process p;
    return p;
}

std::vector<std::string> g_asserts;

void VKAPI_PTR recordAssert(const char* message, void*) { g_asserts.emplace_back(message); }

constexpr uint8_t kCanary = 0xA5;

} // namespace

vkctx::Context& context() {
    Process& p = process();
    if (!p.context) p.context = std::make_unique<vkctx::Context>(defaultOptions());
    return *p.context;
}

VksortSorter createSorter(vkctx::Context& ctx, const SorterOptions& options) {
    VksortSorterCreateInfo info = vkctx::sorterCreateInfo(ctx);
    info.workgroupSize = options.workgroupSize;
    info.keysPerThread = options.keysPerThread;
    info.requiredSubgroupSize = options.requiredSubgroupSize;
    VksortSorter sorter = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
    return sorter;
}

VksortSorter sorter() {
    Process& p = process();
    if (p.sorter == VK_NULL_HANDLE) p.sorter = createSorter(context());
    return p.sorter;
}

void requireCleanValidation(vkctx::Context& ctx) {
    std::vector<std::string> messages = ctx.validationMessages();
    for (const std::string& m : messages) UNSCOPED_INFO("validation: " << m);
    REQUIRE(messages.empty());
}

AssertRecorder::AssertRecorder() {
    g_asserts.clear();
    vksortSetAssertHandler(recordAssert, nullptr);
}

AssertRecorder::~AssertRecorder() { vksortSetAssertHandler(failOnAssert, nullptr); }

const std::vector<std::string>& AssertRecorder::messages() const { return g_asserts; }

bool AssertRecorder::lastContains(const std::string& text) const {
    return !g_asserts.empty() && g_asserts.back().find(text) != std::string::npos;
}

std::string Case::describe() const {
    std::string s = "sort-test --count " + std::to_string(count) + " --key " + hostdata::toString(key) +
                    " --value " + hostdata::toString(value) + " --dist " + hostdata::toString(dist) +
                    " --order " + (order == VKSORT_ORDER_ASCENDING ? "asc" : "desc") + " --seed " +
                    std::to_string(seed);
    if (beginBit != 0 || endBit != 0) s += " --bits " + std::to_string(beginBit) + ":" + std::to_string(endBit);
    return s;
}

void sortAndCheck(const Case& c, VksortSorter s, vkctx::Context* ctxPointer) {
    vkctx::Context& ctx = ctxPointer != nullptr ? *ctxPointer : context();
    if (s == VK_NULL_HANDLE) s = sorter();
    INFO("reproduce with: " << c.describe());
    uint32_t capacity = std::max({c.maxCount, c.count, 1u});
    VksortMemoryRequirementsInfo requirementsInfo{nullptr, capacity, c.key, c.value};
    VksortMemoryRequirements r{};
    REQUIRE(vksortGetMemoryRequirements(s, &requirementsInfo, &r) == VK_SUCCESS);

    // Each range sits in a host-visible buffer between two guard bands of canary bytes, each at
    // least 64 bytes and a whole number of the range's alignment.
    struct Guarded {
        vkctx::Buffer buffer;
        VkDeviceSize offset = 0, size = 0;
    };
    auto makeGuarded = [&](const VksortBufferRequirements& need) {
        Guarded g;
        if (need.size == 0) return g;
        VkDeviceSize guard = ((64 + need.alignment - 1) / need.alignment) * need.alignment;
        g.offset = guard * c.offsetUnits;
        g.size = need.size;
        g.buffer = ctx.createBuffer(g.offset + g.size + guard, need.usage, true);
        std::memset(g.buffer.mapped, kCanary, size_t(g.buffer.size));
        return g;
    };
    Guarded keys = makeGuarded(r.keys), values = makeGuarded(r.values), scratch = makeGuarded(r.scratch);

    hostdata::Data input = hostdata::generate(c.key, c.value, c.count, c.dist, c.seed);
    // (memcpy needs valid pointers even for 0 bytes, and an empty vector's data() may be null.)
    if (!input.keys.empty()) {
        std::memcpy(static_cast<uint8_t*>(keys.buffer.mapped) + keys.offset, input.keys.data(), input.keys.size());
    }
    if (!input.values.empty()) {
        std::memcpy(static_cast<uint8_t*>(values.buffer.mapped) + values.offset, input.values.data(),
                    input.values.size());
    }

    VksortBindingsCreateInfo b{};
    b.maxCount = capacity;
    b.keyType = c.key;
    b.valueType = c.value;
    b.keys = {keys.buffer.buffer, keys.offset, keys.size};
    if (r.values.size != 0) b.values = {values.buffer.buffer, values.offset, values.size};
    b.scratch = {scratch.buffer.buffer, scratch.offset, scratch.size};
    VksortBindings bindings = VK_NULL_HANDLE;
    REQUIRE(vksortCreateBindings(s, &b, &bindings) == VK_SUCCESS);

    VksortSortInfo info{};
    info.bindings = bindings;
    info.count = c.count;
    info.order = c.order;
    info.beginBit = c.beginBit;
    info.endBit = c.endBit;
    VksortSortResult where{};
    REQUIRE(vksortGetSortResult(s, &info, &where) == VK_SUCCESS);
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        before.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
        before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0,
                             nullptr, 0, nullptr);
        VksortSortResult recorded{};
        REQUIRE(vksortCmdSort(cmd, s, &info, &recorded) == VK_SUCCESS);
        REQUIRE(recorded.inScratch == where.inScratch);
        VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0,
                             nullptr, 0, nullptr);
    });

    // The result where vksort says it is.
    const Guarded& keyHome = where.inScratch ? scratch : keys;
    const Guarded& valueHome = where.inScratch ? scratch : values;
    REQUIRE(where.keys.buffer == keyHome.buffer.buffer);
    const uint8_t* outKeys = static_cast<const uint8_t*>(keyHome.buffer.mapped) + where.keys.offset;
    const uint8_t* outValues = nullptr;
    if (r.values.size != 0) {
        REQUIRE(where.values.buffer == valueHome.buffer.buffer);
        outValues = static_cast<const uint8_t*>(valueHome.buffer.mapped) + where.values.offset;
    }
    std::vector<uint32_t> permutation = hostdata::referencePermutation(input, c.order, c.beginBit, c.endBit);
    hostdata::Verdict verdict = hostdata::verify(input, permutation, outKeys, outValues);
    INFO(verdict.detail);
    CHECK(verdict.ok);

    // Not one byte outside the declared ranges changed.
    for (const Guarded* g : {&keys, &values, &scratch}) {
        if (g->size == 0) continue;
        const uint8_t* bytes = static_cast<const uint8_t*>(g->buffer.mapped);
        size_t firstBad = SIZE_MAX;
        for (size_t i = 0; i < g->offset && firstBad == SIZE_MAX; ++i) {
            if (bytes[i] != kCanary) firstBad = i;
        }
        for (size_t i = size_t(g->offset + g->size); i < g->buffer.size && firstBad == SIZE_MAX; ++i) {
            if (bytes[i] != kCanary) firstBad = i;
        }
        INFO("guard band byte " << firstBad << " of a buffer whose range is [" << g->offset << ", "
                                << g->offset + g->size << ")");
        CHECK(firstBad == SIZE_MAX);
    }

    vksortDestroyBindings(s, bindings);
    for (Guarded* g : {&keys, &values, &scratch}) ctx.destroyBuffer(g->buffer);
    requireCleanValidation(ctx);
}

} // namespace vktest
