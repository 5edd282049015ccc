// SPDX-License-Identifier: MIT
// What every example needs before it gets to vksort, in one place: what a renderer already has
// (a checked Vulkan call, an instance and device, buffers from an allocator, compute pipelines, a
// one-shot command buffer), so that each example's main.cpp is only the part worth reading.
// Vulkan is loaded with volk where the build found it (EXAMPLE_VOLK=1, common.cmake), otherwise
// called through the system loader. The validation layer with synchronization validation is on
// when installed; VKSORT_VALIDATION=0 turns it off, =1 requires it; every message it reports is
// counted.
#pragma once

#if EXAMPLE_VOLK
#include <volk.h>
#else
#include <vulkan/vulkan.h>
#endif
#include <vksort/vksort.h>

#include <cstddef>
#include <cstdint>

namespace example {

[[noreturn]] void fail(VkResult result, const char* call, const char* file, int line);
inline void check(VkResult result, const char* call, const char* file, int line) {
    if (result != VK_SUCCESS) fail(result, call, file, line);
}
#define CHECK(call) example::check((call), #call, __FILE__, __LINE__)

struct Context {
    uint32_t apiVersion;
    VkInstance instance;
    VkPhysicalDevice gpu;
    VkDevice device;
    uint32_t family; // the first queue family with the flags asked for
    VkQueue queue;
    VkDebugUtilsMessengerEXT messenger;
    bool validation;
    VkCommandPool commandPool;
    VkCommandBuffer cmd;
};

// The first device and its first queue family with all of queueFlags; exits with status 2 (after
// saying why) when there is none, or when VKSORT_VALIDATION=1 and the layer is missing.
Context createContext(const char* name, VkQueueFlags queueFlags);
void destroyContext(Context& context);
// Messages the validation layer has reported so far (0 while it is off).
int validationMessages();

// A sorter for the context's device, given the loader's (or volk's) vkGetInstanceProcAddr and
// vkGetDeviceProcAddr, that serves the key and value types named by keyTypes and valueTypes
// (VKSORT_KEY_TYPE_BIT / VKSORT_VALUE_TYPE_BIT): only the pipelines those need are compiled.
VksortSorter createSorter(const Context& context, uint32_t keyTypes, uint32_t valueTypes);

// Stands in for the renderer's allocator: one allocation per buffer or image, device-local or
// host-visible (and coherent, so that the host needs no flush or invalidate).
VkDeviceMemory allocateMemory(const Context& context, const VkMemoryRequirements& requirements, bool hostVisible);

struct Buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void* mapped; // host-visible buffers only
};
Buffer createBuffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible);
void destroyBuffer(const Context& context, Buffer& buffer);

VkShaderModule createShaderModule(const Context& context, const uint32_t* code, size_t bytes);
VkPipeline createComputePipeline(const Context& context, const uint32_t* code, size_t bytes, VkPipelineLayout layout);

// What the examples' shaders bind: set 0 of `bindings` storage buffers and `pushBytes` of push
// constants, all visible to `stages`, and `setCount` sets, set s with ranges[s * bindings + b] at
// binding b.
struct StorageLayout {
    VkDescriptorSetLayout setLayout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
};
StorageLayout createStorageLayout(const Context& context, uint32_t bindings, VkShaderStageFlags stages,
                                  uint32_t pushBytes, uint32_t setCount, const VkDescriptorBufferInfo* ranges,
                                  VkDescriptorSet* sets);
void destroyStorageLayout(const Context& context, StorageLayout& layout);

// One VkMemoryBarrier: the examples order whole stages, not buffer ranges.
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages, VkAccessFlags srcAccess,
             VkPipelineStageFlags dstStages, VkAccessFlags dstAccess);

// The context's one command buffer: begin() resets and begins it, submitAndWait() ends it, submits
// it and waits for the queue to go idle (so the next begin() may reuse everything it touched).
VkCommandBuffer begin(const Context& context);
void submitAndWait(const Context& context);

} // namespace example
