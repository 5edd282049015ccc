// SPDX-License-Identifier: MIT
// The Vulkan functions vksort calls, loaded through the caller's vkGetInstanceProcAddr and
// vkGetDeviceProcAddr. The library is compiled with VK_NO_PROTOTYPES: no global vk* symbol
// exists for it to call by mistake, so it works inside a renderer with any loader.
#pragma once

#include <vulkan/vulkan_core.h>

namespace vksort {

#define VKSORT_INSTANCE_FUNCTIONS(X)            \
    X(vkGetPhysicalDeviceProperties)            \
    X(vkGetPhysicalDeviceProperties2)           \
    X(vkGetPhysicalDeviceFeatures2)             \
    X(vkEnumerateDeviceExtensionProperties)

#define VKSORT_DEVICE_FUNCTIONS(X)              \
    X(vkCreateShaderModule)                     \
    X(vkDestroyShaderModule)                    \
    X(vkCreateDescriptorSetLayout)              \
    X(vkDestroyDescriptorSetLayout)             \
    X(vkCreatePipelineLayout)                   \
    X(vkDestroyPipelineLayout)                  \
    X(vkCreateComputePipelines)                 \
    X(vkDestroyPipeline)                        \
    X(vkCreateDescriptorPool)                   \
    X(vkDestroyDescriptorPool)                  \
    X(vkAllocateDescriptorSets)                 \
    X(vkUpdateDescriptorSets)                   \
    X(vkCmdBindPipeline)                        \
    X(vkCmdBindDescriptorSets)                  \
    X(vkCmdPushConstants)                       \
    X(vkCmdDispatch)                            \
    X(vkCmdDispatchIndirect)                    \
    X(vkCmdCopyBuffer)                          \
    X(vkCmdPipelineBarrier)                     \
    X(vkCmdWriteTimestamp)

struct Functions {
#define VKSORT_DECLARE(name) PFN_##name name = nullptr;
    VKSORT_INSTANCE_FUNCTIONS(VKSORT_DECLARE)
    VKSORT_DEVICE_FUNCTIONS(VKSORT_DECLARE)
#undef VKSORT_DECLARE
};

// Fills `functions`; returns the name of the first entry point that could not be loaded, or
// nullptr when all were.
const char* loadFunctions(PFN_vkGetInstanceProcAddr getInstanceProcAddr, PFN_vkGetDeviceProcAddr getDeviceProcAddr,
                          VkInstance instance, VkDevice device, Functions* functions);

} // namespace vksort
