// SPDX-License-Identifier: MIT
// Invalid usage gets a clear answer: every public function, every documented precondition.
//
// Misuse goes to the assert handler (vktest::AssertRecorder records it instead of aborting): the
// call must return VK_ERROR_VALIDATION_FAILED_EXT, report exactly one message that names the
// problem, and create or record nothing (the command spy counts vksort's Vulkan calls). Devices
// that cannot run vksort are a VkResult with a message through pfnMessageCallback; lavapipe has
// every capability, so those tests hand vksort a vkGetInstanceProcAddr that hides some.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <functional>
#include <limits>

#include <sys/wait.h>
#include <unistd.h>

#include "support.hpp"
#include "toolutil.hpp"

using vktest::AssertRecorder;
using vktest::MessageLog;

namespace {

// Checks one invalid call: VK_ERROR_VALIDATION_FAILED_EXT, one assert message containing `text`,
// and no Vulkan command recorded, descriptor pool or pipeline created.
void expectInvalid(const AssertRecorder& recorder, const std::function<VkResult()>& call, const std::string& text,
                   const char* expression, int line) {
    INFO("line " << line << ": " << expression);
    const size_t messagesBefore = recorder.messages().size();
    const vktest::CommandLog logBefore = vktest::commandLog();
    VkResult result = call();
    CHECK(result == VK_ERROR_VALIDATION_FAILED_EXT);
    REQUIRE(recorder.messages().size() == messagesBefore + 1);
    INFO("message: " << recorder.messages().back());
    CHECK(recorder.lastContains(text));
    CHECK(vktest::commandLog().commands == logBefore.commands);
    CHECK(vktest::commandLog().descriptorPools == logBefore.descriptorPools);
    CHECK(vktest::commandLog().pipelines == logBefore.pipelines);
}
#define EXPECT_INVALID(call, text) expectInvalid(recorder, [&]() -> VkResult { return (call); }, text, #call, __LINE__)

// The same for functions without a result.
#define EXPECT_INVALID_VOID(call, text) \
    expectInvalid(recorder, [&]() -> VkResult { (call); return VK_ERROR_VALIDATION_FAILED_EXT; }, text, #call, __LINE__)

// A command buffer in the recording state, for vksortCmdSort; never submitted.
struct Recording {
    Recording() : cmd(vktest::context().allocateCommandBuffer()) {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cmd, &begin);
    }
    ~Recording() {
        vkEndCommandBuffer(cmd);
        vktest::context().freeCommandBuffer(cmd);
    }
    VkCommandBuffer cmd;
};

} // namespace

TEST_CASE("sorter creation: null pointers, pNext, null handles, unknown flags", "[misuse]") {
    AssertRecorder recorder;
    vkctx::Context& ctx = vktest::context();
    const VksortSorterCreateInfo good = vktest::sorterCreateInfo(ctx, {0, 0, 0, true});
    VksortSorter sorter = VK_NULL_HANDLE;
    EXPECT_INVALID(vksortCreateSorter(nullptr, &sorter), "pCreateInfo");
    EXPECT_INVALID(vksortCreateSorter(&good, nullptr), "pSorter");
    int extension = 0;
    VksortSorterCreateInfo info = good;
    info.pNext = &extension;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "pNext");
    info = good;
    info.instance = VK_NULL_HANDLE;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "instance");
    info = good;
    info.physicalDevice = VK_NULL_HANDLE;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "physicalDevice");
    info = good;
    info.device = VK_NULL_HANDLE;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "device");
    info = good;
    info.pfnGetInstanceProcAddr = nullptr;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "pfnGetInstanceProcAddr");
    info = good;
    info.flags = VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT << 1; // the first bit past the last flag
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "flags");
    info.flags = VKSORT_SORTER_CREATE_FLAG_BITS_MAX_ENUM;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "flags");
    CHECK(sorter == VK_NULL_HANDLE);

    // Destroying nothing is no misuse.
    vksortDestroySorter(VK_NULL_HANDLE);
    CHECK(recorder.messages().size() == 9);
    vktest::requireCleanValidation();
}

namespace {

// Creation that must fail with `expected` and a message naming `reason`, creating no pipeline.
void expectCreationFailure(VksortSorterCreateInfo info, VkResult expected, const std::vector<std::string>& reasons,
                           const std::vector<std::string>& notMentioned = {}) {
    MessageLog log;
    info.pfnMessageCallback = MessageLog::callback;
    info.pMessageUserData = &log;
    const uint32_t pipelinesBefore = vktest::commandLog().pipelines;
    VksortSorter sorter = reinterpret_cast<VksortSorter>(uintptr_t(0x1234)); // must be overwritten
    VkResult result = vksortCreateSorter(&info, &sorter);
    INFO("result " << vkctx::resultName(result) << ", messages: " << log.all());
    CHECK(result == expected);
    CHECK(sorter == VK_NULL_HANDLE);
    REQUIRE(log.messages.size() == 1);
    for (const std::string& r : reasons) CHECK(log.contains(r));
    for (const std::string& r : notMentioned) CHECK_FALSE(log.contains(r));
    CHECK(vktest::commandLog().pipelines == pipelinesBefore);
    if (result == VK_SUCCESS) vksortDestroySorter(sorter);
}

} // namespace

TEST_CASE("sorter creation: tile overrides the device cannot run", "[misuse][create]") {
    vkctx::Context& ctx = vktest::context();
    const VkPhysicalDeviceLimits& limits = ctx.properties().limits;
    const uint32_t maxWorkgroup = std::min(limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]);
    auto with = [&](uint32_t workgroupSize, uint32_t keysPerThread) {
        return vktest::sorterCreateInfo(ctx, {workgroupSize, keysPerThread, 0, true});
    };
    expectCreationFailure(with(100, 0), VK_ERROR_FEATURE_NOT_PRESENT, {"workgroupSize 100", "power of two"});
    expectCreationFailure(with(8, 0), VK_ERROR_FEATURE_NOT_PRESENT, {"workgroupSize 8"});
    expectCreationFailure(with(maxWorkgroup * 2, 0), VK_ERROR_FEATURE_NOT_PRESENT,
                          {"workgroupSize " + std::to_string(maxWorkgroup * 2), std::to_string(maxWorkgroup)});
    expectCreationFailure(with(16, 33), VK_ERROR_FEATURE_NOT_PRESENT, {"keysPerThread 33", "at most 32"});
    // More keys than a tile can rank (16-bit ranks: reachable only with workgroups of more than
    // 2048 invocations; test_plan.cpp checks it on a made-up device), and more shared memory than
    // the device has.
    if (131072 / maxWorkgroup <= 32) {
        expectCreationFailure(with(maxWorkgroup, 131072 / maxWorkgroup), VK_ERROR_FEATURE_NOT_PRESENT,
                              {"131072", "65536"});
    }
    // (The largest workgroup needs the fewest keys per thread to overflow shared memory.)
    const uint32_t tooMany = limits.maxComputeSharedMemorySize / (4 * maxWorkgroup) + 1;
    if (tooMany <= 32) {
        expectCreationFailure(with(maxWorkgroup, tooMany), VK_ERROR_FEATURE_NOT_PRESENT,
                              {"shared memory", std::to_string(limits.maxComputeSharedMemorySize)});
    }
    vktest::requireCleanValidation();
}

TEST_CASE("sorter creation: a required subgroup size needs size control and a size the device has", "[misuse][create]") {
    vkctx::Context& ctx = vktest::context();
    const uint32_t size = ctx.subgroupProperties().subgroupSize;
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx, {0, 0, size, true});
    info.flags = 0;
    expectCreationFailure(info, VK_ERROR_FEATURE_NOT_PRESENT,
                          {"requiredSubgroupSize", "VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT"});
    if (!ctx.subgroupSizeControlEnabled()) {
        WARN("no subgroup size control: the size checks below need it");
        vktest::requireCleanValidation();
        return;
    }
    for (uint32_t bad : {3u, 256u, 1u << 31}) {
        info = vktest::sorterCreateInfo(ctx, {0, 0, bad, true});
        expectCreationFailure(info, VK_ERROR_FEATURE_NOT_PRESENT, {"requiredSubgroupSize " + std::to_string(bad)});
    }
    vktest::requireCleanValidation();
}

// ---- Devices that lack what vksort needs ---------------------------------------------------

namespace fake {

// What the wrapped vkGetInstanceProcAddr hides (one process-wide set: the tests are serial).
VkSubgroupFeatureFlags clearedOperations = 0;
VkShaderStageFlags clearedStages = 0;
uint32_t deviceApiVersion = 0;          // nonzero: the device reports this version
const char* hiddenExtension = nullptr;  // not listed by vkEnumerateDeviceExtensionProperties
const char* missingFunction = nullptr;  // vkGet*ProcAddr returns NULL for it
uint32_t claimedSubgroupSize = 0;       // nonzero: the device reports this as every subgroup size
bool noSizeControlFeature = false;      // subgroupSizeControl reads VK_FALSE

PFN_vkGetPhysicalDeviceProperties realProperties;
PFN_vkGetPhysicalDeviceProperties2 realProperties2;
PFN_vkEnumerateDeviceExtensionProperties realEnumerate;
PFN_vkGetPhysicalDeviceFeatures2 realFeatures2;

VKAPI_ATTR void VKAPI_CALL properties(VkPhysicalDevice device, VkPhysicalDeviceProperties* p) {
    realProperties(device, p);
    if (deviceApiVersion != 0) p->apiVersion = deviceApiVersion;
}

VKAPI_ATTR void VKAPI_CALL properties2(VkPhysicalDevice device, VkPhysicalDeviceProperties2* p) {
    realProperties2(device, p);
    if (deviceApiVersion != 0) p->properties.apiVersion = deviceApiVersion;
    for (auto* s = static_cast<VkBaseOutStructure*>(p->pNext); s != nullptr; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES) {
            auto* subgroup = reinterpret_cast<VkPhysicalDeviceSubgroupProperties*>(s);
            subgroup->supportedOperations &= ~clearedOperations;
            subgroup->supportedStages &= ~clearedStages;
            if (claimedSubgroupSize != 0) subgroup->subgroupSize = claimedSubgroupSize;
        }
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES && claimedSubgroupSize != 0) {
            auto* control = reinterpret_cast<VkPhysicalDeviceSubgroupSizeControlProperties*>(s);
            control->minSubgroupSize = control->maxSubgroupSize = claimedSubgroupSize;
        }
    }
}

VKAPI_ATTR void VKAPI_CALL features2(VkPhysicalDevice device, VkPhysicalDeviceFeatures2* f) {
    realFeatures2(device, f);
    for (auto* s = static_cast<VkBaseOutStructure*>(f->pNext); s != nullptr; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES && noSizeControlFeature) {
            reinterpret_cast<VkPhysicalDeviceSubgroupSizeControlFeatures*>(s)->subgroupSizeControl = VK_FALSE;
        }
    }
}

VKAPI_ATTR VkResult VKAPI_CALL enumerate(VkPhysicalDevice device, const char* layer, uint32_t* count,
                                         VkExtensionProperties* out) {
    uint32_t n = 0;
    realEnumerate(device, layer, &n, nullptr);
    std::vector<VkExtensionProperties> all(n);
    realEnumerate(device, layer, &n, all.data());
    all.resize(n);
    std::vector<VkExtensionProperties> shown;
    for (const VkExtensionProperties& e : all) {
        if (hiddenExtension == nullptr || std::strcmp(e.extensionName, hiddenExtension) != 0) shown.push_back(e);
    }
    if (out == nullptr) {
        *count = uint32_t(shown.size());
        return VK_SUCCESS;
    }
    uint32_t written = std::min(*count, uint32_t(shown.size()));
    std::copy(shown.begin(), shown.begin() + written, out);
    *count = written;
    return written < shown.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name) {
    if (missingFunction != nullptr && std::strcmp(name, missingFunction) == 0) return nullptr;
    PFN_vkVoidFunction real = vkGetInstanceProcAddr(instance, name);
    if (std::strcmp(name, "vkGetPhysicalDeviceProperties") == 0) {
        realProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(properties);
    }
    if (std::strcmp(name, "vkGetPhysicalDeviceProperties2") == 0 ||
        std::strcmp(name, "vkGetPhysicalDeviceProperties2KHR") == 0) {
        realProperties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(properties2);
    }
    if (std::strcmp(name, "vkGetPhysicalDeviceFeatures2") == 0 ||
        std::strcmp(name, "vkGetPhysicalDeviceFeatures2KHR") == 0) {
        realFeatures2 = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(features2);
    }
    if (std::strcmp(name, "vkEnumerateDeviceExtensionProperties") == 0) {
        realEnumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(enumerate);
    }
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return real; // see getDeviceProcAddr
    return real;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice device, const char* name) {
    if (missingFunction != nullptr && std::strcmp(name, missingFunction) == 0) return nullptr;
    return vktest::spyGetDeviceProcAddr()(device, name);
}

// Resets everything on scope exit, so a failed REQUIRE cannot leak a fake into the next test.
struct Scope {
    Scope() { reset(); }
    ~Scope() { reset(); }
    static void reset() {
        clearedOperations = 0;
        clearedStages = 0;
        deviceApiVersion = 0;
        hiddenExtension = nullptr;
        missingFunction = nullptr;
        claimedSubgroupSize = 0;
        noSizeControlFeature = false;
    }
};

VksortSorterCreateInfo createInfo() {
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(vktest::context(), {0, 0, 0, true});
    info.pfnGetInstanceProcAddr = getInstanceProcAddr;
    info.pfnGetDeviceProcAddr = getDeviceProcAddr;
    return info;
}

} // namespace fake

TEST_CASE("sorter creation: a device without subgroup ballot or arithmetic", "[misuse][create]") {
    fake::Scope scope;
    // First the wrapper alone, so that a failure below is the fake's doing.
    {
        MessageLog log;
        VksortSorterCreateInfo info = fake::createInfo();
        info.pfnMessageCallback = MessageLog::callback;
        info.pMessageUserData = &log;
        VksortSorter sorter = VK_NULL_HANDLE;
        INFO(log.all());
        REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
        vksortDestroySorter(sorter);
    }
    fake::clearedOperations = VK_SUBGROUP_FEATURE_BALLOT_BIT;
    expectCreationFailure(fake::createInfo(), VK_ERROR_FEATURE_NOT_PRESENT, {"VK_SUBGROUP_FEATURE_BALLOT_BIT"},
                          {"ARITHMETIC", "BASIC"});
    fake::clearedOperations = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    expectCreationFailure(fake::createInfo(), VK_ERROR_FEATURE_NOT_PRESENT, {"VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"},
                          {"BALLOT", "BASIC"});
    fake::clearedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
    expectCreationFailure(fake::createInfo(), VK_ERROR_FEATURE_NOT_PRESENT, {"VK_SUBGROUP_FEATURE_BASIC_BIT"},
                          {"BALLOT", "ARITHMETIC"});
    fake::clearedOperations = VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    expectCreationFailure(fake::createInfo(), VK_ERROR_FEATURE_NOT_PRESENT,
                          {"VK_SUBGROUP_FEATURE_BALLOT_BIT", "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"});
    // Subgroup operations everywhere but in compute shaders.
    fake::clearedOperations = 0;
    fake::clearedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    expectCreationFailure(fake::createInfo(), VK_ERROR_FEATURE_NOT_PRESENT, {"compute"});
    vktest::requireCleanValidation();
}

TEST_CASE("sorter creation: below Vulkan 1.1, or an entry point missing", "[misuse][create]") {
    fake::Scope scope;
    VksortSorterCreateInfo info = fake::createInfo();
    info.apiVersion = VK_API_VERSION_1_0;
    expectCreationFailure(info, VK_ERROR_INITIALIZATION_FAILED, {"1.1", "1.0"});
    info.apiVersion = 0; // VkApplicationInfo's "0 means 1.0"
    expectCreationFailure(info, VK_ERROR_INITIALIZATION_FAILED, {"1.1"});
    fake::deviceApiVersion = VK_API_VERSION_1_0;
    expectCreationFailure(fake::createInfo(), VK_ERROR_INITIALIZATION_FAILED, {"1.1", "device"});
    fake::deviceApiVersion = 0;
    for (const char* missing : {"vkGetPhysicalDeviceFeatures2", "vkCreateComputePipelines", "vkCmdDispatch"}) {
        fake::missingFunction = missing;
        expectCreationFailure(fake::createInfo(), VK_ERROR_INITIALIZATION_FAILED, {missing});
    }
    vktest::requireCleanValidation();
}

TEST_CASE("sorter creation: size control requested from a device without it", "[misuse][create]") {
    // A Vulkan 1.1 instance on a device that does not list VK_EXT_subgroup_size_control.
    fake::Scope scope;
    fake::hiddenExtension = VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME;
    VksortSorterCreateInfo info = fake::createInfo();
    info.apiVersion = VK_API_VERSION_1_1;
    info.flags = VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT;
    expectCreationFailure(info, VK_ERROR_FEATURE_NOT_PRESENT, {"VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT"});
    // The extension listed (or Vulkan 1.3), but the subgroupSizeControl feature unsupported.
    fake::hiddenExtension = nullptr;
    fake::noSizeControlFeature = true;
    info = fake::createInfo();
    info.flags = VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT;
    expectCreationFailure(info, VK_ERROR_FEATURE_NOT_PRESENT, {"subgroupSizeControl feature"});
    vktest::requireCleanValidation();
}

TEST_CASE("the default assert handler prints the message and aborts", "[misuse]") {
    // vksortSetAssertHandler(NULL) restores the default; a child process meets it. The child
    // touches no Vulkan object: the invalid call fails on its NULL sorter first.
    int pipeFds[2];
    REQUIRE(pipe(pipeFds) == 0);
    std::fflush(nullptr);
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // Catch2's own SIGABRT handler would report the abort as a failure on the shared stdout
        // and print a second summary: the child dies by the default action instead, silently.
        std::signal(SIGABRT, SIG_DFL);
        dup2(pipeFds[1], STDERR_FILENO);
        dup2(pipeFds[1], STDOUT_FILENO);
        close(pipeFds[0]);
        vksortSetAssertHandler(nullptr, nullptr);
        VksortSorterProperties p;
        vksortGetSorterProperties(VK_NULL_HANDLE, &p);
        _exit(0); // reached only if the default handler returned
    }
    close(pipeFds[1]);
    std::string output;
    char buffer[256];
    for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof buffer)) > 0;) output.append(buffer, size_t(n));
    close(pipeFds[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    INFO("child's stderr: " << output);
    CHECK(WIFSIGNALED(status));
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT));
    CHECK(output.find("vksortGetSorterProperties") != std::string::npos);
    CHECK(output.find("sorter") != std::string::npos);
}

// ---- Queries and bindings --------------------------------------------------------------------

TEST_CASE("properties and memory requirements: null pointers, pNext, enums, capacity", "[misuse]") {
    AssertRecorder recorder;
    VksortSorter sorter = vktest::sorter({0, 0, 0, true});
    VksortSorterProperties p{};
    p.tileSize = 12345;
    EXPECT_INVALID_VOID(vksortGetSorterProperties(VK_NULL_HANDLE, &p), "sorter");
    EXPECT_INVALID_VOID(vksortGetSorterProperties(sorter, nullptr), "pProperties");
    CHECK(p.tileSize == 12345);
    vksortGetSorterProperties(sorter, &p);
    REQUIRE(p.maxCount32 > 0);
    REQUIRE(p.maxCount64 > 0);

    VksortMemoryRequirementsInfo good{nullptr, 1000, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32};
    VksortMemoryRequirements r;
    std::memset(&r, 0xAB, sizeof r);
    const VksortMemoryRequirements untouched = r;
    EXPECT_INVALID(vksortGetMemoryRequirements(VK_NULL_HANDLE, &good, &r), "sorter");
    EXPECT_INVALID(vksortGetMemoryRequirements(sorter, nullptr, &r), "pInfo");
    EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &good, nullptr), "pRequirements");
    int extension = 0;
    VksortMemoryRequirementsInfo info = good;
    info.pNext = &extension;
    EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "pNext");
    // (Only values inside the enums' 31-bit range: a negative one cannot even be made in C++
    // without undefined behaviour, which the sanitizer run would rightly flag in this test.)
    for (int bad : {6, 0x7FFFFFFF}) {
        info = good;
        info.keyType = VksortKeyType(bad);
        EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "keyType");
        info = good;
        info.valueType = VksortValueType(bad == 6 ? 4 : bad);
        EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "valueType");
    }
    info = good;
    info.maxCount = 0;
    EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "maxCount 0");
    // The reported maxima, with 64-bit values (the tightest case): the maximum works, one more
    // does not, and nothing works past 32-bit indexing.
    info = {nullptr, p.maxCount32, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT64};
    CHECK(vksortGetMemoryRequirements(sorter, &info, &r) == VK_SUCCESS);
    const VksortMemoryRequirements atMax = r;
    std::memcpy(&r, &untouched, sizeof r);
    info.maxCount = p.maxCount32 + 1;
    EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "maxCount " + std::to_string(p.maxCount32 + 1));
    info = {nullptr, p.maxCount64, VKSORT_KEY_TYPE_INT64, VKSORT_VALUE_TYPE_UINT64};
    CHECK(vksortGetMemoryRequirements(sorter, &info, &r) == VK_SUCCESS);
    std::memcpy(&r, &untouched, sizeof r);
    info.maxCount = p.maxCount64 + 1;
    EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "maxCount " + std::to_string(p.maxCount64 + 1));
    // Every format's own maximum: it works, one more does not; the properties' two are the
    // tightest cases, and keys alone may hold more.
    for (VksortKeyType key : vktest::allKeyTypes()) {
        for (VksortValueType value : vktest::allValueTypes()) {
            const uint32_t most = vksortGetMaxCount(sorter, key, value);
            INFO("key " << hostdata::toString(key) << ", value " << hostdata::toString(value) << ": " << most);
            CHECK(most >= (vksortKeySize(key) == 8 ? p.maxCount64 : p.maxCount32));
            info = {nullptr, most, key, value};
            CHECK(vksortGetMemoryRequirements(sorter, &info, &r) == VK_SUCCESS);
            if (most < UINT32_MAX) {
                info.maxCount = most + 1;
                EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "maxCount " + std::to_string(most + 1));
            }
        }
    }
    CHECK(vksortGetMaxCount(sorter, VksortKeyType(6), VKSORT_VALUE_TYPE_NONE) == 0);
    CHECK(vksortGetMaxCount(sorter, VKSORT_KEY_TYPE_UINT32, VksortValueType(4)) == 0);
    std::memcpy(&r, &untouched, sizeof r);
    for (VksortKeyType key : vktest::allKeyTypes()) {
        info = {nullptr, UINT32_MAX, key, VKSORT_VALUE_TYPE_NONE};
        EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &info, &r), "maxCount");
    }
    CHECK(std::memcmp(&r, &untouched, sizeof r) == 0);
    // The maximum's ranges fit one storage-buffer binding each (maxStorageBufferRange).
    const VkDeviceSize range = vktest::context().properties().limits.maxStorageBufferRange;
    CHECK(atMax.keys.size <= range);
    CHECK(atMax.values.size <= range);
    vktest::requireCleanValidation();
}

namespace {

// Valid bindings info over three buffers of `r`'s sizes plus slack, for tests to spoil.
struct BindingsFixture {
    BindingsFixture(VksortSorter s, VksortKeyType key, VksortValueType value, uint32_t maxCount) : sorter(s) {
        VksortMemoryRequirementsInfo info{nullptr, maxCount, key, value};
        REQUIRE(vksortGetMemoryRequirements(sorter, &info, &r) == VK_SUCCESS);
        vkctx::Context& ctx = vktest::context();
        keys = ctx.createBuffer(r.keys.size + 256, r.keys.usage, false);
        if (r.values.size != 0) values = ctx.createBuffer(r.values.size + 256, r.values.usage, false);
        scratch = ctx.createBuffer(r.scratch.size + 256, r.scratch.usage, false);
        good.maxCount = maxCount;
        good.keyType = key;
        good.valueType = value;
        good.keys = {keys.buffer, 0, r.keys.size};
        if (r.values.size != 0) good.values = {values.buffer, 0, r.values.size};
        good.scratch = {scratch.buffer, 0, r.scratch.size};
    }
    ~BindingsFixture() {
        vkctx::Context& ctx = vktest::context();
        ctx.destroyBuffer(keys);
        ctx.destroyBuffer(values);
        ctx.destroyBuffer(scratch);
    }
    VksortSorter sorter;
    VksortMemoryRequirements r{};
    vkctx::Buffer keys, values, scratch;
    VksortBindingsCreateInfo good{};
};

} // namespace

TEST_CASE("bindings: null pointers, pNext, capacity, enums, buffers, sizes, alignment, overlap", "[misuse]") {
    AssertRecorder recorder;
    VksortSorter sorter = vktest::sorter({0, 0, 0, true});
    BindingsFixture f(sorter, VKSORT_KEY_TYPE_UINT64, VKSORT_VALUE_TYPE_UINT32, 5000);
    VksortBindings bindings = VK_NULL_HANDLE;
    auto create = [&](const VksortBindingsCreateInfo& info) { return vksortCreateBindings(sorter, &info, &bindings); };

    EXPECT_INVALID(vksortCreateBindings(VK_NULL_HANDLE, &f.good, &bindings), "sorter");
    EXPECT_INVALID(vksortCreateBindings(sorter, nullptr, &bindings), "pCreateInfo");
    EXPECT_INVALID(vksortCreateBindings(sorter, &f.good, nullptr), "pBindings");
    int extension = 0;
    VksortBindingsCreateInfo info = f.good;
    info.pNext = &extension;
    EXPECT_INVALID(create(info), "pNext");
    info = f.good;
    info.maxCount = 0;
    EXPECT_INVALID(create(info), "maxCount 0");
    // The capacity and format checks are vksortGetMemoryRequirements', reported as the caller's.
    CHECK(recorder.lastContains("vksortCreateBindings: "));
    info.maxCount = UINT32_MAX;
    EXPECT_INVALID(create(info), "maxCount");
    info = f.good;
    info.keyType = VksortKeyType(6);
    EXPECT_INVALID(create(info), "keyType");
    CHECK(recorder.lastContains("vksortCreateBindings: "));
    info = f.good;
    info.valueType = VksortValueType(4);
    EXPECT_INVALID(create(info), "valueType");

    struct Range {
        const char* name;
        VksortBufferRange VksortBindingsCreateInfo::*member;
        const VksortBufferRequirements& need;
    };
    for (const Range& range : {Range{"keys", &VksortBindingsCreateInfo::keys, f.r.keys},
                               Range{"values", &VksortBindingsCreateInfo::values, f.r.values},
                               Range{"scratch", &VksortBindingsCreateInfo::scratch, f.r.scratch}}) {
        INFO(range.name << " range");
        info = f.good;
        (info.*range.member).buffer = VK_NULL_HANDLE;
        EXPECT_INVALID(create(info), std::string(range.name) + ".buffer");
        info = f.good;
        (info.*range.member).size = range.need.size - 1;
        EXPECT_INVALID(create(info), "smaller than");
        CHECK(recorder.lastContains(range.name));
        info = f.good;
        (info.*range.member).size = 0;
        EXPECT_INVALID(create(info), "smaller than");
        // Misaligned by less than the alignment (the extra 256 bytes keep it inside the buffer).
        if (range.need.alignment > 1) {
            info = f.good;
            (info.*range.member).offset = range.need.alignment / 2;
            EXPECT_INVALID(create(info), "multiple of " + std::to_string(range.need.alignment));
            CHECK(recorder.lastContains(range.name));
        }
        info = f.good;
        (info.*range.member).offset = UINT64_MAX / range.need.alignment * range.need.alignment;
        (info.*range.member).size = UINT64_MAX / 2;
        EXPECT_INVALID(create(info), "wraps");
        // vksort cannot learn a buffer's size, so VK_WHOLE_SIZE would claim a size nobody checked.
        for (VkDeviceSize offset : {VkDeviceSize(0), range.need.alignment}) {
            info = f.good;
            (info.*range.member).offset = offset;
            (info.*range.member).size = VK_WHOLE_SIZE;
            EXPECT_INVALID(create(info), std::string(range.name) + ".size is VK_WHOLE_SIZE");
        }
    }

    // Overlaps inside one buffer: every pair of ranges, by one alignment unit.
    vkctx::Buffer shared = vktest::context().createBuffer(f.r.keys.size + f.r.values.size + f.r.scratch.size + 4096,
                                                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, false);
    const VkDeviceSize a = f.r.scratch.alignment; // the largest of the three here
    const VkDeviceSize valuesAt = toolutil::alignUp(f.r.keys.size, a);
    const VkDeviceSize scratchAt = toolutil::alignUp(valuesAt + f.r.values.size, a);
    VksortBindingsCreateInfo packed = f.good;
    packed.keys = {shared.buffer, 0, f.r.keys.size};
    packed.values = {shared.buffer, valuesAt, f.r.values.size};
    packed.scratch = {shared.buffer, scratchAt, f.r.scratch.size};
    info = packed;
    info.values.offset -= a;
    EXPECT_INVALID(create(info), "keys and values ranges overlap");
    info = packed;
    info.scratch.offset -= a;
    EXPECT_INVALID(create(info), "values and scratch ranges overlap");
    info = packed;
    info.scratch = {shared.buffer, 0, f.r.scratch.size};
    info.keys = {shared.buffer, scratchAt, f.r.keys.size};
    EXPECT_INVALID(create(info), "overlap");
    info = packed;
    info.values = info.keys;
    EXPECT_INVALID(create(info), "overlap");
    CHECK(bindings == VK_NULL_HANDLE);

    // Ranges that touch without overlapping are fine, and so is a values range left garbage
    // without values (it is ignored).
    REQUIRE(create(packed) == VK_SUCCESS);
    vksortDestroyBindings(sorter, bindings);
    BindingsFixture keysOnly(sorter, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_NONE, 100);
    info = keysOnly.good;
    info.values = {reinterpret_cast<VkBuffer>(uintptr_t(0xBAD)), 3, 1};
    REQUIRE(create(info) == VK_SUCCESS);
    EXPECT_INVALID_VOID(vksortDestroyBindings(VK_NULL_HANDLE, bindings), "sorter");
    vksortDestroyBindings(sorter, bindings);
    vksortDestroyBindings(sorter, VK_NULL_HANDLE); // no misuse
    vktest::context().destroyBuffer(shared);
    vktest::requireCleanValidation();
}

TEST_CASE("one buffer holding keys, values and scratch sorts correctly", "[misuse]") {
    // The other side of the overlap check: adjacent ranges in one VkBuffer are legal, and the
    // sort must not spill from one into its neighbour.
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter();
    const uint32_t count = 3 * vktest::properties(sorter).tileSize + 17;
    for (uint32_t endBit : {32u, 20u}) { // even and odd pass counts
        VksortMemoryRequirementsInfo ri{nullptr, count, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32};
        VksortMemoryRequirements r{};
        REQUIRE(vksortGetMemoryRequirements(sorter, &ri, &r) == VK_SUCCESS);
        const VkDeviceSize a = std::max({r.keys.alignment, r.values.alignment, r.scratch.alignment});
        const VkDeviceSize valuesAt = toolutil::alignUp(r.keys.size, a);
        const VkDeviceSize scratchAt = toolutil::alignUp(valuesAt + r.values.size, a);
        vkctx::Buffer all = ctx.createBuffer(scratchAt + r.scratch.size, r.keys.usage | r.values.usage | r.scratch.usage, true);
        hostdata::Data input = hostdata::generate(VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, count, {}, endBit);
        uint8_t* base = static_cast<uint8_t*>(all.mapped);
        std::memcpy(base, input.keys.data(), input.keys.size());
        std::memcpy(base + valuesAt, input.values.data(), input.values.size());
        VksortBindingsCreateInfo bi{nullptr, count, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32,
                                    {all.buffer, 0, r.keys.size}, {all.buffer, valuesAt, r.values.size},
                                    {all.buffer, scratchAt, r.scratch.size}};
        VksortBindings bindings = VK_NULL_HANDLE;
        REQUIRE(vksortCreateBindings(sorter, &bi, &bindings) == VK_SUCCESS);
        VksortSortInfo si{};
        si.bindings = bindings;
        si.count = count;
        si.endBit = endBit;
        VksortSortResult where{};
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            vktest::hostToCompute(cmd);
            REQUIRE(vksortCmdSort(cmd, sorter, &si, &where) == VK_SUCCESS);
            vktest::computeToHost(cmd);
        });
        REQUIRE(where.keys.buffer == all.buffer);
        auto permutation = hostdata::referencePermutation(input, VKSORT_ORDER_ASCENDING, 0, endBit);
        hostdata::Verdict verdict =
            hostdata::verify(input, permutation, base + where.keys.offset, base + where.values.offset);
        INFO(verdict.detail);
        CHECK(verdict.ok);
        vksortDestroyBindings(sorter, bindings);
        ctx.destroyBuffer(all);
    }
    vktest::requireCleanValidation();
}

// ---- Sorting -------------------------------------------------------------------------------

TEST_CASE("sorting: null handles, pNext, count, order, bit ranges, and nothing recorded", "[misuse]") {
    AssertRecorder recorder;
    VksortSorter sorter = vktest::sorter({0, 0, 0, true});
    vktest::BindingsRig rig32(vktest::context(), sorter, VKSORT_KEY_TYPE_INT32, VKSORT_VALUE_TYPE_UINT32, 1000);
    vktest::BindingsRig rig64(vktest::context(), sorter, VKSORT_KEY_TYPE_FLOAT64, VKSORT_VALUE_TYPE_NONE, 1000);
    Recording recording;
    const VkCommandBuffer cmd = recording.cmd;
    VksortSortInfo good{};
    good.bindings = rig32.bindings();
    good.count = 1000;
    VksortSortResult result;
    std::memset(&result, 0xAB, sizeof result);
    const VksortSortResult untouched = result;

    // Each invalid info through both the query and the recording.
    auto both = [&](const VksortSortInfo& info, const std::string& text, int line) {
        INFO("case at line " << line);
        EXPECT_INVALID(vksortGetSortResult(sorter, &info, &result), text);
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &info, &result), text);
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &info, nullptr), text);
    };
    EXPECT_INVALID(vksortCmdSort(VK_NULL_HANDLE, sorter, &good, &result), "commandBuffer");
    EXPECT_INVALID(vksortCmdSort(cmd, VK_NULL_HANDLE, &good, &result), "sorter");
    EXPECT_INVALID(vksortCmdSort(cmd, sorter, nullptr, &result), "pInfo");
    EXPECT_INVALID(vksortGetSortResult(VK_NULL_HANDLE, &good, &result), "sorter");
    EXPECT_INVALID(vksortGetSortResult(sorter, nullptr, &result), "pInfo");
    EXPECT_INVALID(vksortGetSortResult(sorter, &good, nullptr), "pResult");
    int extension = 0;
    VksortSortInfo info = good;
    info.pNext = &extension;
    both(info, "pNext", __LINE__);
    info = good;
    info.bindings = VK_NULL_HANDLE;
    both(info, "bindings", __LINE__);
    // A count above the capacity: refused when recording; the result query does not read it.
    info = good;
    for (uint32_t count : {1001u, UINT32_MAX}) {
        info.count = count;
        const std::string text = "count " + std::to_string(count) + " exceeds the bindings' maxCount 1000";
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &info, &result), text);
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &info, nullptr), text);
        CHECK(vksortGetSortResult(sorter, &info, &result) == VK_SUCCESS);
    }
    std::memcpy(&result, &untouched, sizeof result);
    for (int bad : {2, 0x7FFFFFFF}) {
        info = good;
        info.order = VksortOrder(bad);
        both(info, "order", __LINE__);
    }
    // Bit ranges: empty, reversed, past the key, the key-width marker as a begin.
    const struct {
        VksortBindings bindings;
        uint32_t begin, end;
    } ranges[] = {{rig32.bindings(), 5, 5}, {rig32.bindings(), 9, 4}, {rig32.bindings(), 0, 33},
                  {rig32.bindings(), 32, 0}, {rig32.bindings(), 40, 48}, {rig64.bindings(), 64, 0},
                  {rig64.bindings(), 0, 65}, {rig64.bindings(), 63, 63}, {rig64.bindings(), 60, 33}};
    for (const auto& range : ranges) {
        info = good;
        info.bindings = range.bindings;
        info.beginBit = range.begin;
        info.endBit = range.end;
        INFO("bits " << range.begin << ":" << range.end);
        both(info, "bit range", __LINE__);
        info.count = 0; // even with nothing to sort: the request is still wrong
        both(info, "bit range", __LINE__);
    }
    // Timestamp queries past UINT32_MAX would wrap onto the pool's first ones (8 passes: 10 queries).
    VkQueryPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    poolInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    poolInfo.queryCount = 16;
    VkQueryPool pool = VK_NULL_HANDLE;
    REQUIRE(vkCreateQueryPool(vktest::context().device(), &poolInfo, nullptr, &pool) == VK_SUCCESS);
    info = good;
    info.timestampQueryPool = pool;
    for (uint32_t first : {UINT32_MAX - 9, UINT32_MAX}) {
        info.firstTimestampQuery = first;
        both(info, "firstTimestampQuery " + std::to_string(first), __LINE__);
    }
    CHECK(std::memcmp(&result, &untouched, sizeof result) == 0);
    info.firstTimestampQuery = UINT32_MAX - 10; // the last 10 indices: only the pool's size can refuse them
    CHECK(vksortGetSortResult(sorter, &info, &result) == VK_SUCCESS);
    info.timestampQueryPool = VK_NULL_HANDLE; // without a pool the index is not read
    info.firstTimestampQuery = UINT32_MAX;
    CHECK(vksortGetSortResult(sorter, &info, &result) == VK_SUCCESS);
    vkDestroyQueryPool(vktest::context().device(), pool, nullptr);

    // Count 0 is valid and records nothing, timestamps included; the result is still reported.
    info = good;
    info.count = 0;
    info.endBit = 12;
    const uint32_t commandsBefore = vktest::commandLog().commands;
    CHECK(vksortCmdSort(cmd, sorter, &info, &result) == VK_SUCCESS);
    CHECK(vktest::commandLog().commands == commandsBefore);
    CHECK(result.passCount == 3);
    CHECK(result.inScratch == VK_TRUE);
    CHECK(result.keys.buffer == rig32.scratchBuffer());
    // And a valid sort records something, so the spy really watches this sorter.
    CHECK(vksortCmdSort(cmd, sorter, &good, nullptr) == VK_SUCCESS);
    CHECK(vktest::commandLog().commands > commandsBefore);
    vktest::requireCleanValidation();
}

TEST_CASE("a driver that launches narrower subgroups than it reports still gets a correct sort", "[misuse][create]") {
    // The device claims subgroups four times wider than it runs (at most 128, the widest Vulkan
    // allows), and full ones: the sorter sizes its per-subgroup counters for fewer subgroups than
    // really launch, and the shaders must share them (lavapipe from 1024-bit vectors up does this
    // for real, at 4096 reporting 128 and running 16 lanes; this provokes it on any device with
    // subgroup size control).
    vkctx::Context& ctx = vktest::context();
    if (!ctx.subgroupSizeControlEnabled()) {
        WARN("the device has no subgroup size control: full subgroups cannot be promised");
        return;
    }
    fake::Scope scope;
    fake::claimedSubgroupSize = std::min(ctx.subgroupProperties().subgroupSize * 4, 128u);
    VksortSorterCreateInfo info = fake::createInfo();
    info.flags = VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT;
    VksortSorter sorter = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
    const VksortSorterProperties p = vktest::properties(sorter);
    CHECK(p.minSubgroupSize == fake::claimedSubgroupSize);
    for (uint32_t count : {100u, 5000u, 70001u}) {
        for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT64}) {
            vktest::Case c;
            c.key = VKSORT_KEY_TYPE_INT64;
            c.value = value;
            c.count = count;
            c.order = VKSORT_ORDER_DESCENDING;
            c.dist = vktest::dist(hostdata::Distribution::Few, 40);
            c.seed = count;
            vktest::sortAndCheck(c, sorter);
        }
    }
    vksortDestroySorter(sorter);
    vktest::requireCleanValidation();
}

TEST_CASE("a sorter that serves some formats compiles only their pipelines and refuses the others", "[misuse][create]") {
    AssertRecorder recorder;
    vkctx::Context& ctx = vktest::context();
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx, {0, 0, 0, true});
    VksortSorter sorter = VK_NULL_HANDLE;
    info.keyTypes = 1u << 6;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "keyTypes");
    info.keyTypes = 0;
    info.valueTypes = 1u << 4;
    EXPECT_INVALID(vksortCreateSorter(&info, &sorter), "valueTypes");
    info.valueTypes = 0;

    // Every format: the scan, 2 tile counts, 6 reorders, 12 single-workgroup sorts (on its tile
    // and on the main tile), 6 compare sorts and 6 merge steps, and 3 chunk sorts per key width
    // whose merge sort sorts its chunks by comparisons.
    uint32_t before = vktest::commandLog().pipelines;
    REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
    uint32_t listed = 0;
    REQUIRE(vksortGetSorterPipelines(sorter, &listed, nullptr) == VK_SUCCESS);
    std::vector<VksortPipelineInfo> pipelines(listed);
    REQUIRE(vksortGetSorterPipelines(sorter, &listed, pipelines.data()) == VK_SUCCESS);
    uint32_t chunkSorts = 0;
    for (const VksortPipelineInfo& p : pipelines) chunkSorts += std::strncmp(p.name, "chunk_sort_", 11) == 0 ? 1u : 0u;
    CHECK(chunkSorts % 3 == 0);
    CHECK(vktest::commandLog().pipelines - before == 33 + chunkSorts);
    vksortDestroySorter(sorter);

    // A renderer's depth sort: f32 keys with u32 payloads or argsort indices (both 32-bit values).
    info.keyTypes = VKSORT_KEY_TYPE_BIT(VKSORT_KEY_TYPE_FLOAT32);
    info.valueTypes = VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_UINT32) | VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_INDEX);
    before = vktest::commandLog().pipelines;
    REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
    // (the scan, the tile counts, the reorder, the single-workgroup sort on its tile and on the
    // main tile, the compare sort, the merge step)
    CHECK(vktest::commandLog().pipelines - before == 7);
    for (VksortValueType value : {VKSORT_VALUE_TYPE_UINT32, VKSORT_VALUE_TYPE_INDEX}) {
        for (uint32_t count : {3000u, 20000u, 100003u}) {
            vktest::Case c;
            c.key = VKSORT_KEY_TYPE_FLOAT32;
            c.value = value;
            c.count = count;
            c.order = VKSORT_ORDER_DESCENDING;
            vktest::sortAndCheck(c, sorter);
        }
    }
    CHECK(vksortGetMaxCount(sorter, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX) > 0);
    CHECK(vksortGetMaxCount(sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32) == 0);
    CHECK(vksortGetMaxCount(sorter, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_NONE) == 0);
    VksortMemoryRequirements r{};
    for (const VksortMemoryRequirementsInfo& other :
         {VksortMemoryRequirementsInfo{nullptr, 1000, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32},
          VksortMemoryRequirementsInfo{nullptr, 1000, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT64},
          VksortMemoryRequirementsInfo{nullptr, 1000, VKSORT_KEY_TYPE_FLOAT64, VKSORT_VALUE_TYPE_INDEX}}) {
        EXPECT_INVALID(vksortGetMemoryRequirements(sorter, &other, &r), "created without this key or value type");
    }
    VksortBindingsCreateInfo bi{};
    bi.maxCount = 1000;
    bi.keyType = VKSORT_KEY_TYPE_INT32;
    bi.valueType = VKSORT_VALUE_TYPE_UINT32;
    VksortBindings bindings = VK_NULL_HANDLE;
    EXPECT_INVALID(vksortCreateBindings(sorter, &bi, &bindings), "created without this key or value type");
    CHECK(bindings == VK_NULL_HANDLE);
    vksortDestroySorter(sorter);
    vktest::requireCleanValidation();
}

TEST_CASE("indirect sorting: the count's buffer and offset, and vksortCmdSort's checks", "[misuse]") {
    AssertRecorder recorder;
    vkctx::Context& ctx = vktest::context();
    VksortSorter sorter = vktest::sorter({0, 0, 0, true});
    VksortSorter other = vktest::sorter({16, 4, 0, true});
    vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, 1000);
    vktest::BindingsRig otherRig(ctx, other, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, 1000);
    vkctx::Buffer count = ctx.createBuffer(64, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    Recording recording;
    const VkCommandBuffer cmd = recording.cmd;
    VksortSortInfo good{};
    good.bindings = rig.bindings();
    VksortSortResult result;
    std::memset(&result, 0xAB, sizeof result);
    const VksortSortResult untouched = result;
    auto indirect = [&](const VksortSortInfo& info, VkBuffer buffer, VkDeviceSize offset) {
        return vksortCmdSortIndirect(cmd, sorter, &info, buffer, offset, &result);
    };
    // A valid sort, recorded into a command buffer of its own: two sorts with the same bindings
    // and no barrier between them would be a hazard.
    auto valid = [&](const VksortSortInfo& info, VkBuffer buffer, VkDeviceSize offset) {
        Recording own;
        const uint32_t commandsBefore = vktest::commandLog().commands;
        CHECK(vksortCmdSortIndirect(own.cmd, sorter, &info, buffer, offset, nullptr) == VK_SUCCESS);
        CHECK(vktest::commandLog().commands > commandsBefore);
    };

    EXPECT_INVALID(vksortCmdSortIndirect(VK_NULL_HANDLE, sorter, &good, count.buffer, 0, nullptr), "commandBuffer");
    EXPECT_INVALID(vksortCmdSortIndirect(cmd, VK_NULL_HANDLE, &good, count.buffer, 0, nullptr), "sorter");
    EXPECT_INVALID(vksortCmdSortIndirect(cmd, sorter, nullptr, count.buffer, 0, nullptr), "pInfo");
    EXPECT_INVALID(indirect(good, VK_NULL_HANDLE, 0), "countBuffer");
    EXPECT_INVALID(indirect(good, count.buffer, 2), "countOffset 2 must be a multiple of 4");
    EXPECT_INVALID(indirect(good, count.buffer, UINT64_MAX - 3), "wraps");
    int extension = 0;
    VksortSortInfo info = good;
    info.pNext = &extension;
    EXPECT_INVALID(indirect(info, count.buffer, 0), "pNext");
    info = good;
    info.bindings = VK_NULL_HANDLE;
    EXPECT_INVALID(indirect(info, count.buffer, 0), "bindings");
    info.bindings = otherRig.bindings();
    EXPECT_INVALID(indirect(info, count.buffer, 0), "another sorter");
    info = good;
    info.order = VksortOrder(2);
    EXPECT_INVALID(indirect(info, count.buffer, 0), "order");
    info = good;
    info.beginBit = 8;
    info.endBit = 8;
    EXPECT_INVALID(indirect(info, count.buffer, 0), "bit range");

    // The count inside the scratch range the sort may write (and copies the count into): its
    // first and last words are refused, the words just outside it (the rig's guard bands) not.
    const VksortBufferRange scratch = rig.scratchRange();
    const VkDeviceSize end = scratch.offset + scratch.size;
    for (VkDeviceSize offset : {scratch.offset, scratch.offset + scratch.size / 8 * 4, end - 4}) {
        EXPECT_INVALID(indirect(good, scratch.buffer, offset), "scratch range");
    }
    CHECK(std::memcmp(&result, &untouched, sizeof result) == 0);
    for (VkDeviceSize offset : {scratch.offset - 4, end}) valid(good, scratch.buffer, offset);
    // pInfo->count is not read by the indirect sort: it may be anything.
    info = good;
    info.count = UINT32_MAX;
    valid(info, count.buffer, 60);
    ctx.destroyBuffer(count);
    vktest::requireCleanValidation();
}

TEST_CASE("a sorter whose bindings still exist is not destroyed", "[misuse]") {
    // Bindings keep tables planned for their sorter's tile: once it is gone they must be too, or
    // a later sorter created at the same address would accept them.
    AssertRecorder recorder;
    vkctx::Context& ctx = vktest::context();
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx, {0, 0, 0, true});
    info.keyTypes = VKSORT_KEY_TYPE_BIT(VKSORT_KEY_TYPE_UINT32);
    info.valueTypes = VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_NONE);
    VksortSorter sorter = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
    {
        vktest::BindingsRig first(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, 5000);
        {
            vktest::BindingsRig second(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, 100);
            EXPECT_INVALID_VOID(vksortDestroySorter(sorter), "still exist (2)");
        }
        EXPECT_INVALID_VOID(vksortDestroySorter(sorter), "still exist (1)");
        // Refused, the sorter is whole: it still sorts.
        vktest::Case c;
        c.count = 5000;
        vktest::sortAndCheck(c, sorter);
    }
    // Refused bindings count for nothing.
    VksortBindingsCreateInfo refused{};
    VksortBindings none = VK_NULL_HANDLE;
    EXPECT_INVALID(vksortCreateBindings(sorter, &refused, &none), "maxCount 0");
    const size_t messages = recorder.messages().size();
    vksortDestroySorter(sorter);
    CHECK(recorder.messages().size() == messages);
    vktest::requireCleanValidation();
}

TEST_CASE("bindings belong to the sorter that created them", "[misuse]") {
    // Their status tables are sized for that sorter's tile and their format for its pipelines:
    // another sorter (here with a smaller tile) would write past the tables.
    AssertRecorder recorder;
    VksortSorter owner = vktest::sorter({0, 0, 0, true});
    VksortSorter other = vktest::sorter({16, 4, 0, true});
    vktest::BindingsRig rig(vktest::context(), owner, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE, 100000);
    VksortSortInfo info{};
    info.bindings = rig.bindings();
    info.count = 100000;
    VksortSortResult where{};
    Recording recording;
    EXPECT_INVALID(vksortCmdSort(recording.cmd, other, &info, &where), "another sorter");
    EXPECT_INVALID(vksortGetSortResult(other, &info, &where), "another sorter");
    EXPECT_INVALID_VOID(vksortDestroyBindings(other, rig.bindings()), "another sorter");
    CHECK(vksortGetSortResult(owner, &info, &where) == VK_SUCCESS);
    // The result query ignores the count, as the indirect sort does.
    info.count = UINT32_MAX;
    CHECK(vksortGetSortResult(owner, &info, &where) == VK_SUCCESS);
}

TEST_CASE("buffers at record time: the flag, the device, bindings or buffers", "[misuse]") {
    AssertRecorder recorder;
    vkctx::Context& plain = vktest::context();
    if (!plain.pushDescriptorsEnabled()) {
        // The flag on a device created without VK_KHR_push_descriptor: its entry point is missing.
        VksortSorterCreateInfo info = vktest::sorterCreateInfo(plain);
        info.flags |= VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT;
        expectCreationFailure(info, VK_ERROR_EXTENSION_NOT_PRESENT,
                              {"VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT", "VK_KHR_push_descriptor"});
    }
    // A sorter without the flag takes no buffers at record time.
    {
        VksortSorterCreateInfo info = vktest::sorterCreateInfo(plain);
        info.flags &= ~VkFlags(VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT);
        VksortSorter sorter = VK_NULL_HANDLE;
        REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
        {
            vktest::BindingsRig rig(plain, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, 1000);
            Recording recording;
            VksortSortInfo sort{};
            sort.pBuffers = &rig.buffers();
            sort.count = 1000;
            VksortSortResult result{};
            EXPECT_INVALID(vksortCmdSort(recording.cmd, sorter, &sort, &result),
                           "VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT");
            EXPECT_INVALID(vksortGetSortResult(sorter, &sort, &result), "pBuffers");
        }
        vksortDestroySorter(sorter);
    }
    vktest::requireCleanValidation(plain);

    // A device with the extension: both given, neither given, and buffers that are refused as
    // vksortCreateBindings refuses them, named by the sort call.
    vkctx::ContextOptions options;
    options.pushDescriptors = true;
    vkctx::Context ctx(options);
    if (!ctx.pushDescriptorsEnabled()) {
        WARN("SKIPPED: " << ctx.properties().deviceName << " lacks VK_KHR_push_descriptor");
        return;
    }
    VksortSorter sorter = vktest::createSorter(ctx);
    {
        vktest::BindingsRig rig(ctx, sorter, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32, 1000);
        VkCommandBuffer cmd = ctx.allocateCommandBuffer();
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cmd, &begin);
        VksortSortInfo sort{};
        sort.count = 1000;
        VksortSortResult result{};
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &sort, &result), "pInfo->bindings or pInfo->pBuffers");
        sort.bindings = rig.bindings();
        sort.pBuffers = &rig.buffers();
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &sort, &result), "both set");
        sort.bindings = VK_NULL_HANDLE;
        VksortBindingsCreateInfo buffers = rig.buffers();
        sort.pBuffers = &buffers;
        buffers.scratch.size -= 4;
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &sort, &result), "vksortCmdSort");
        EXPECT_INVALID(vksortCmdSortIndirect(cmd, sorter, &sort, rig.keysBuffer(), 0, &result), "scratch range");
        buffers = rig.buffers();
        buffers.values = buffers.keys;
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &sort, &result), "overlap");
        buffers = rig.buffers();
        sort.count = 1001;
        EXPECT_INVALID(vksortCmdSort(cmd, sorter, &sort, &result), "maxCount");
        // The same buffers are good: the query answers and the sort records.
        sort.count = 1000;
        CHECK(vksortGetSortResult(sorter, &sort, &result) == VK_SUCCESS);
        CHECK(vksortCmdSort(cmd, sorter, &sort, &result) == VK_SUCCESS);
        vkEndCommandBuffer(cmd);
        ctx.freeCommandBuffer(cmd);
    }
    vksortDestroySorter(sorter);
    vktest::requireCleanValidation(ctx);
}
