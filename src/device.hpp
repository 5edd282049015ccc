// SPDX-License-Identifier: MIT
// What a physical device offers, read once at sorter creation.
#pragma once

#include <string>

#include "functions.hpp"
#include "plan.hpp"

namespace vksort {

struct DeviceInfo {
    DeviceFacts facts;
    uint32_t apiVersion = 0;       // the physical device's
    bool sizeControlKnown = false; // VkPhysicalDeviceSubgroupSizeControlProperties was readable
    bool subgroupSizeControl = false; // ...and the subgroupSizeControl feature is supported
    VkShaderStageFlags requiredSubgroupSizeStages = 0;
    uint32_t maxComputeWorkgroupSubgroups = 0;
    bool computeFullSubgroups = false;
};

// Reads the device's properties and checks the requirements of DEVICE REQUIREMENTS in the
// public header. Returns VK_SUCCESS, or the documented error with `reason` saying why.
VkResult queryDevice(const Functions& fn, VkPhysicalDevice physicalDevice, uint32_t instanceApiVersion,
                     DeviceInfo* info, std::string* reason);

} // namespace vksort
