// SPDX-License-Identifier: MIT
// The one translation unit that compiles vulkan_radix_sort's implementation (its header with
// VRDX_IMPLEMENTATION), with volk's function pointers for every Vulkan call. Built without vksort's
// warning flags: the code is the library's.
//
// vulkan_radix_sort v0.4.0 uses the Vulkan 1.4 core names of push descriptors. Older Vulkan
// headers (Debian 12's 1.3.239) lack them, and a Vulkan 1.3 device (the context asks for 1.3) need
// not load the 1.4 entry point, so the names map to VK_KHR_push_descriptor's, the same function
// and flag, which the context enables.
#include <volk.h>

#ifndef VK_VERSION_1_4
typedef PFN_vkCmdPushDescriptorSetKHR PFN_vkCmdPushDescriptorSet;
#define VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR
#endif
#define vkCmdPushDescriptorSet vkCmdPushDescriptorSetKHR

#define VRDX_IMPLEMENTATION
#include <vk_radix_sort.h>
