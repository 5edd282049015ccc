// SPDX-License-Identifier: MIT
// A small Vulkan harness for vksort's tools, tests and peer benchmarks (the examples start Vulkan
// themselves, in examples/common, as a renderer would): instance and device through volk, with
// the extensions and features a caller requires, the Khronos validation layer with
// synchronization validation whenever it is installed, buffers, one-shot submissions. Not part of
// the library: a renderer brings its own.
#pragma once

#include <volk.h>
#include <vksort/vksort.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace vkctx {

// Prints the failing call with file, line and VkResult, then exits with status 1 (tools and tests
// only).
[[noreturn]] void fail(const char* call, VkResult result, const char* file, int line);
#define VKCTX_CHECK(call)                                                         \
    do {                                                                          \
        VkResult vkctx_result_ = (call);                                          \
        if (vkctx_result_ != VK_SUCCESS) ::vkctx::fail(#call, vkctx_result_, __FILE__, __LINE__); \
    } while (false)

const char* resultName(VkResult result);

class Context;

// What a caller needs of the device beyond what the context enables by itself: a Vulkan version,
// extensions and features. The feature structures' sType and pNext are the context's business.
struct DeviceRequirements {
    uint32_t apiVersion = VK_API_VERSION_1_1;
    std::vector<std::string> extensions;
    VkPhysicalDeviceFeatures features10{};
    VkPhysicalDeviceVulkan11Features features11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    // Who needs them, named in the message when the device lacks some (e.g. "vrdx-bench: vrdx").
    std::string requester = "vksort";
};

struct ContextOptions {
    // Device choice: an index into the instance's physical devices, a case-insensitive
    // substring of its name, or (both unset) the best one: discrete, integrated, virtual, CPU.
    int deviceIndex = -1;
    std::string deviceName;
    // Load the Khronos validation layer (with synchronization validation) when installed.
    // The environment variable VKSORT_VALIDATION=0 turns it off.
    bool validation = true;
    // The layer's synchronization validation. The peer benchmarks turn it off: there it would
    // judge another library's barriers rather than vksort's.
    bool synchronizationValidation = true;
    // A Vulkan 1.1 instance and device with no extension and no optional feature enabled.
    bool minimalVulkan11 = false;
    // Enable subgroup size control (Vulkan 1.3 or VK_EXT_subgroup_size_control) when offered.
    // Off by default, as the README's snippet creates a device: vksort sorts as fast without it,
    // and needs it only for a required subgroup size.
    bool subgroupSizeControl = false;
    // Enable VK_KHR_pipeline_executable_properties when offered (tools/pipeline-stats).
    bool pipelineStatistics = false;
    // Enable VK_KHR_push_descriptor when offered, so that sorters take buffers at record time
    // (VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT), as the README's snippet does.
    bool pushDescriptors = false;
    // What the device must offer and have enabled besides the above, asked once the physical
    // device is chosen (the context passed has its instance, physical device and properties, not
    // yet its device). Where the device lacks any of it, the context prints what is missing and
    // exits with status 1. Unset, the device's creation names no Vulkan 1.1, 1.2 or 1.3 feature
    // structure.
    std::function<DeviceRequirements(const Context&)> requirements;
};

struct DeviceSummary {
    uint32_t index;
    std::string name;
    VkPhysicalDeviceType type;
    uint32_t apiVersion;
    uint32_t driverVersion;
    std::string driverInfo;
};

// Every physical device the loader offers (creates and destroys a temporary instance).
std::vector<DeviceSummary> listDevices();
const char* deviceTypeName(VkPhysicalDeviceType type);
// Prints listDevices(), a line each: what the tools' --list-devices shows.
void printDevices();

// What the physical device offers of subgroup size control, whether or not the context enabled
// it (ContextOptions::subgroupSizeControl; it also needs computeFullSubgroups).
struct SubgroupSizeControl {
    bool offered = false; // Vulkan 1.3 or VK_EXT_subgroup_size_control, and the subgroupSizeControl feature
    uint32_t minSize = 0, maxSize = 0;          // VkPhysicalDeviceSubgroupSizeControlProperties
    VkShaderStageFlags requiredSizeStages = 0; // stages that can require a size
};

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* mapped = nullptr; // host-visible buffers only
};

class Context {
public:
    explicit Context(const ContextOptions& options = {});
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    uint32_t apiVersion() const { return apiVersion_; }
    bool subgroupSizeControlEnabled() const { return sizeControlEnabled_; }
    const SubgroupSizeControl& subgroupSizeControl() const { return sizeControl_; }
    bool pipelineStatisticsEnabled() const { return statisticsEnabled_; }
    bool pushDescriptorsEnabled() const { return pushDescriptorsEnabled_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    const VkPhysicalDeviceSubgroupProperties& subgroupProperties() const { return subgroup_; }
    std::string driverDescription() const; // e.g. "NVIDIA 580.159.04" or "Mesa 22.3.6 (LLVM 15.0.6)"
    VkDriverId driverId() const { return driver_.driverID; }
    uint32_t timestampValidBits() const { return timestampValidBits_; }
    bool validationEnabled() const { return validation_; }
    // Whether the instance has VK_EXT_debug_utils enabled (it is, with the validation layer).
    bool debugUtilsEnabled() const { return validation_; }

    // Validation messages (warnings and errors) received so far.
    std::vector<std::string> validationMessages() const;
    size_t validationMessageCount() const;
    void clearValidationMessages();

    // Buffers. Host-visible ones are mapped and coherent; device-local ones are only reached
    // through upload/download (staging) or the GPU. A usage with SHADER_DEVICE_ADDRESS allocates
    // memory whose address shaders can take (the bufferDeviceAddress feature, through
    // ContextOptions::requirements).
    Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible);
    void destroyBuffer(Buffer& buffer);
    void upload(const Buffer& buffer, VkDeviceSize offset, const void* data, VkDeviceSize size);
    void download(const Buffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize size);

    // Records with `record` into a fresh primary command buffer, submits it and waits.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record);
    VkCommandBuffer allocateCommandBuffer();
    void freeCommandBuffer(VkCommandBuffer commandBuffer);
    void submitAndWait(VkCommandBuffer commandBuffer);

    // Timestamps: a pool of `count` VK_QUERY_TYPE_TIMESTAMP queries (the caller destroys it), and
    // the ms between queries 2r and 2r + 1 for each of `spans` pairs, waiting for their results
    // (tick differences masked to timestampValidBits()).
    VkQueryPool createTimestampPool(uint32_t count);
    std::vector<double> timestampSpansMs(VkQueryPool pool, uint32_t spans);

private:
    uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags flags) const;
    static VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                         void* user);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    uint32_t apiVersion_ = 0;
    uint32_t timestampValidBits_ = 0;
    bool sizeControlEnabled_ = false;
    SubgroupSizeControl sizeControl_;
    bool statisticsEnabled_ = false;
    bool pushDescriptorsEnabled_ = false;
    bool validation_ = false;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceSubgroupProperties subgroup_{};
    VkPhysicalDeviceDriverProperties driver_{};
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    std::mutex poolMutex_;
    mutable std::mutex messageMutex_;
    std::vector<std::string> messages_;
};

// A sorter create info for this context: its handles, volk's entry points, and subgroup size
// control and push descriptors where the context enabled them. Callers add their overrides.
VksortSorterCreateInfo sorterCreateInfo(const Context& ctx);

// A compute pipeline over `buffers` storage-buffer bindings (binding i = buffers[i], whole range)
// and `pushBytes` of push constants, from SPIR-V words.
class ComputeKernel {
public:
    ComputeKernel(Context& ctx, const uint32_t* words, size_t wordCount, const std::vector<VkBuffer>& buffers,
                  uint32_t pushBytes);
    ~ComputeKernel();
    ComputeKernel(const ComputeKernel&) = delete;
    ComputeKernel& operator=(const ComputeKernel&) = delete;

    // Binds its pipeline, descriptor set and push constants (whatever was bound before), and
    // dispatches `groups` workgroups.
    void record(VkCommandBuffer cmd, const void* push, uint32_t groups) const;

private:
    Context& ctx_;
    uint32_t pushBytes_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

} // namespace vkctx
