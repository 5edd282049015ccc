// SPDX-License-Identifier: MIT
#include "functions.hpp"

namespace vksort {

const char* loadFunctions(PFN_vkGetInstanceProcAddr getInstanceProcAddr, PFN_vkGetDeviceProcAddr getDeviceProcAddr,
                          VkInstance instance, VkDevice device, bool pushDescriptors, Functions* functions) {
    Functions f;
#define VKSORT_LOAD_INSTANCE(name)                                                      \
    f.name = reinterpret_cast<PFN_##name>(getInstanceProcAddr(instance, #name));        \
    if (f.name == nullptr) return #name;
    VKSORT_INSTANCE_FUNCTIONS(VKSORT_LOAD_INSTANCE)
#undef VKSORT_LOAD_INSTANCE
    if (getDeviceProcAddr == nullptr) {
        getDeviceProcAddr =
            reinterpret_cast<PFN_vkGetDeviceProcAddr>(getInstanceProcAddr(instance, "vkGetDeviceProcAddr"));
        if (getDeviceProcAddr == nullptr) return "vkGetDeviceProcAddr";
    }
#define VKSORT_LOAD_DEVICE(name)                                                        \
    f.name = reinterpret_cast<PFN_##name>(getDeviceProcAddr(device, #name));            \
    if (f.name == nullptr) return #name;
    VKSORT_DEVICE_FUNCTIONS(VKSORT_LOAD_DEVICE)
    if (pushDescriptors) {
        VKSORT_PUSH_DESCRIPTOR_FUNCTIONS(VKSORT_LOAD_DEVICE)
    }
#undef VKSORT_LOAD_DEVICE
    *functions = f;
    return nullptr;
}

const char* loadDebugUtils(PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance, Functions* functions) {
#define VKSORT_LOAD_DEBUG_UTILS(name)                                                           \
    functions->name = reinterpret_cast<PFN_##name>(getInstanceProcAddr(instance, #name));       \
    if (functions->name == nullptr) return #name;
    VKSORT_DEBUG_UTILS_FUNCTIONS(VKSORT_LOAD_DEBUG_UTILS)
#undef VKSORT_LOAD_DEBUG_UTILS
    return nullptr;
}

} // namespace vksort
