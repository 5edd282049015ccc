// SPDX-License-Identifier: MIT
#include "device.hpp"

#include <cstring>
#include <vector>

namespace vksort {

namespace {

bool hasExtension(const Functions& fn, VkPhysicalDevice physicalDevice, const char* name) {
    uint32_t count = 0;
    if (fn.vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (fn.vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data()) != VK_SUCCESS) {
        return false;
    }
    for (const VkExtensionProperties& e : extensions) {
        if (std::strcmp(e.extensionName, name) == 0) return true;
    }
    return false;
}

std::string versionString(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v));
}

} // namespace

VkResult queryDevice(const Functions& fn, VkPhysicalDevice physicalDevice, uint32_t instanceApiVersion,
                     DeviceInfo* info, std::string* reason) {
    VkPhysicalDeviceProperties basic{};
    fn.vkGetPhysicalDeviceProperties(physicalDevice, &basic);
    if (instanceApiVersion < VK_API_VERSION_1_1 || basic.apiVersion < VK_API_VERSION_1_1) {
        *reason = "vksort needs Vulkan 1.1; the instance was created for " + versionString(instanceApiVersion) +
                  " and the device offers " + versionString(basic.apiVersion);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    uint32_t usableVersion = basic.apiVersion < instanceApiVersion ? basic.apiVersion : instanceApiVersion;
    bool sizeControl = usableVersion >= VK_API_VERSION_1_3 ||
                       hasExtension(fn, physicalDevice, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);

    VkPhysicalDeviceSubgroupSizeControlProperties sizeProperties{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    subgroup.pNext = sizeControl ? &sizeProperties : nullptr;
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &subgroup;
    fn.vkGetPhysicalDeviceProperties2(physicalDevice, &properties);

    std::string missing;
    if ((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) missing += " subgroup operations in compute shaders;";
    if ((subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) == 0) missing += " VK_SUBGROUP_FEATURE_BASIC_BIT;";
    if ((subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT) == 0) missing += " VK_SUBGROUP_FEATURE_BALLOT_BIT;";
    if ((subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) == 0) {
        missing += " VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;";
    }
    if (!missing.empty()) {
        missing.pop_back();
        *reason = std::string("device ") + basic.deviceName + " lacks what vksort needs:" + missing;
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }

    DeviceInfo out;
    out.apiVersion = basic.apiVersion;
    DeviceFacts& f = out.facts;
    f.vendorID = basic.vendorID;
    f.subgroupSize = subgroup.subgroupSize;
    f.subgroupShuffle = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) != 0;
    f.minSubgroupSize = subgroup.subgroupSize;
    f.maxSubgroupSize = subgroup.subgroupSize;
    if (sizeControl) {
        out.sizeControlKnown = true;
        out.requiredSubgroupSizeStages = sizeProperties.requiredSubgroupSizeStages;
        out.maxComputeWorkgroupSubgroups = sizeProperties.maxComputeWorkgroupSubgroups;
        if (sizeProperties.minSubgroupSize != 0 && sizeProperties.minSubgroupSize < f.minSubgroupSize) {
            f.minSubgroupSize = sizeProperties.minSubgroupSize;
        }
        if (sizeProperties.maxSubgroupSize > f.maxSubgroupSize) f.maxSubgroupSize = sizeProperties.maxSubgroupSize;

        VkPhysicalDeviceSubgroupSizeControlFeatures sizeFeatures{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
        VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        features.pNext = &sizeFeatures;
        fn.vkGetPhysicalDeviceFeatures2(physicalDevice, &features);
        out.subgroupSizeControl = sizeFeatures.subgroupSizeControl == VK_TRUE;
        out.computeFullSubgroups = sizeFeatures.computeFullSubgroups == VK_TRUE;
    }
    const VkPhysicalDeviceLimits& limits = basic.limits;
    f.maxSharedMemoryBytes = limits.maxComputeSharedMemorySize;
    f.maxWorkgroupInvocations = limits.maxComputeWorkGroupInvocations;
    f.maxWorkgroupSizeX = limits.maxComputeWorkGroupSize[0];
    for (int i = 0; i < 3; ++i) f.maxWorkgroupCount[i] = limits.maxComputeWorkGroupCount[i];
    f.maxStorageBufferRange = limits.maxStorageBufferRange;
    f.maxPerStageStorageBuffers = limits.maxPerStageDescriptorStorageBuffers;
    f.minStorageBufferOffsetAlignment = limits.minStorageBufferOffsetAlignment;
    f.minUniformBufferOffsetAlignment = limits.minUniformBufferOffsetAlignment;
    f.maxComputeWorkgroupSubgroups = out.maxComputeWorkgroupSubgroups;
    *info = out;
    return VK_SUCCESS;
}

} // namespace vksort
