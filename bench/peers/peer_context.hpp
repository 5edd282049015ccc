// SPDX-License-Identifier: MIT
// The Vulkan context of the peer benchmarks (vrdx-bench, fuchsia-bench): an instance and a device
// through volk, like vksort_harness's vkctx::Context, but with the device extensions and features
// that another sort library asks for (push descriptors, synchronization2, buffer device addresses,
// the Vulkan memory model...), which vkctx::Context does not enable. Errors go through
// vksort_harness's VKCTX_CHECK.
#pragma once

#include <volk.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "vkcontext.hpp" // VKCTX_CHECK, vkctx::Buffer

namespace peerctx {

struct Options {
    int deviceIndex = -1;   // --device N
    std::string deviceName; // --device NAME (a case-insensitive substring)
    bool validation = true; // the Khronos validation layer when installed (VKSORT_VALIDATION=0: off)
};

// What a library needs of the device: a Vulkan version, extensions and features. The feature
// structures' sType and pNext are the context's business.
struct Requirements {
    uint32_t apiVersion = VK_API_VERSION_1_2;
    std::vector<std::string> extensions;
    VkPhysicalDeviceFeatures features10{};
    VkPhysicalDeviceVulkan11Features features11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
};

class Context {
public:
    // Creates the instance and picks the physical device; createDevice() makes the device.
    explicit Context(const Options& options);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    // Creates the device with `r`. False, with what is missing in `why`, when the physical device
    // lacks a version, an extension or a feature of `r`.
    bool createDevice(const Requirements& r, std::string* why);

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    uint32_t subgroupSize() const { return subgroupSize_; }
    std::string driverDescription() const; // e.g. "NVIDIA 580.159.04" or "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)"
    uint32_t timestampValidBits() const { return timestampValidBits_; }
    bool validationEnabled() const { return validation_; }
    size_t validationMessageCount() const;

    // Device-local buffers (usage gets TRANSFER_SRC and TRANSFER_DST added); `deviceAddress`
    // allocates memory whose address shaders can take (usage needs SHADER_DEVICE_ADDRESS).
    vkctx::Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool deviceAddress = false);
    void destroyBuffer(vkctx::Buffer& buffer);
    void upload(const vkctx::Buffer& buffer, const void* data, VkDeviceSize size);
    void download(const vkctx::Buffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize size);

    VkCommandBuffer allocateCommandBuffer();
    void freeCommandBuffer(VkCommandBuffer cmd);
    void submitAndWait(VkCommandBuffer cmd);
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record);

private:
    vkctx::Buffer createRaw(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags flags,
                            bool deviceAddress);
    static VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                         void* user);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    uint32_t instanceApi_ = 0;
    uint32_t timestampValidBits_ = 0;
    uint32_t subgroupSize_ = 0;
    bool validation_ = false;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceDriverProperties driver_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    mutable std::mutex messageMutex_;
    size_t messages_ = 0;
};

} // namespace peerctx
