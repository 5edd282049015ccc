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

// VK_EXT_debug_utils, loaded only for a sorter created with VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT
// (null otherwise: then vksort makes no such call).
#define VKSORT_DEBUG_UTILS_FUNCTIONS(X)         \
    X(vkSetDebugUtilsObjectNameEXT)             \
    X(vkCmdBeginDebugUtilsLabelEXT)             \
    X(vkCmdEndDebugUtilsLabelEXT)

// VK_KHR_push_descriptor, loaded only for a sorter created with
// VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT (null otherwise).
#define VKSORT_PUSH_DESCRIPTOR_FUNCTIONS(X)     \
    X(vkCmdPushDescriptorSetKHR)

struct Functions {
#define VKSORT_DECLARE(name) PFN_##name name = nullptr;
    VKSORT_INSTANCE_FUNCTIONS(VKSORT_DECLARE)
    VKSORT_DEVICE_FUNCTIONS(VKSORT_DECLARE)
    VKSORT_DEBUG_UTILS_FUNCTIONS(VKSORT_DECLARE)
    VKSORT_PUSH_DESCRIPTOR_FUNCTIONS(VKSORT_DECLARE)
#undef VKSORT_DECLARE
};

// Fills `functions` (with `pushDescriptors` the VK_KHR_push_descriptor entries too); returns the
// name of the first entry point that could not be loaded, or nullptr when all were.
const char* loadFunctions(PFN_vkGetInstanceProcAddr getInstanceProcAddr, PFN_vkGetDeviceProcAddr getDeviceProcAddr,
                          VkInstance instance, VkDevice device, bool pushDescriptors, Functions* functions);

// Fills the VK_EXT_debug_utils entries of `functions` (through the instance: the extension is an
// instance extension); returns the name of the first that could not be loaded, or nullptr.
const char* loadDebugUtils(PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance, Functions* functions);

} // namespace vksort
