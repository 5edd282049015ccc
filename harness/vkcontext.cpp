// SPDX-License-Identifier: MIT
#include "vkcontext.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vkctx {

const char* resultName(VkResult result) {
    switch (result) {
#define VKCTX_NAME(r) \
    case r: return #r;
        VKCTX_NAME(VK_SUCCESS)
        VKCTX_NAME(VK_NOT_READY)
        VKCTX_NAME(VK_TIMEOUT)
        VKCTX_NAME(VK_INCOMPLETE)
        VKCTX_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        VKCTX_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        VKCTX_NAME(VK_ERROR_INITIALIZATION_FAILED)
        VKCTX_NAME(VK_ERROR_DEVICE_LOST)
        VKCTX_NAME(VK_ERROR_MEMORY_MAP_FAILED)
        VKCTX_NAME(VK_ERROR_LAYER_NOT_PRESENT)
        VKCTX_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        VKCTX_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        VKCTX_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        VKCTX_NAME(VK_ERROR_TOO_MANY_OBJECTS)
        VKCTX_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        VKCTX_NAME(VK_ERROR_VALIDATION_FAILED_EXT)
#undef VKCTX_NAME
    default: return "VkResult(?)";
    }
}

void fail(const char* call, VkResult result, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, call, resultName(result), int(result));
    std::exit(1);
}

const char* deviceTypeName(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

namespace {

void initializeVolk() {
    static bool done = false;
    if (!done) {
        VKCTX_CHECK(volkInitialize());
        done = true;
    }
}

int typeRank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const auto& l : layers) {
        if (std::strcmp(l.layerName, name) == 0) return true;
    }
    return false;
}

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
    for (const auto& e : extensions) {
        if (std::strcmp(e.extensionName, name) == 0) return true;
    }
    return false;
}

// The VkBool32 members of a feature structure, from `first` to the end: every feature that
// `want` asks for and `have` lacks is named by its index in `missing`.
template <typename T>
void compareFeatures(const T& want, const T& have, size_t first, const char* label, std::vector<std::string>* missing) {
    const auto* w = reinterpret_cast<const unsigned char*>(&want);
    const auto* h = reinterpret_cast<const unsigned char*>(&have);
    for (size_t offset = first, i = 0; offset + sizeof(VkBool32) <= sizeof(T); offset += sizeof(VkBool32), ++i) {
        VkBool32 a = VK_FALSE, b = VK_FALSE;
        std::memcpy(&a, w + offset, sizeof a);
        std::memcpy(&b, h + offset, sizeof b);
        if (a == VK_TRUE && b != VK_TRUE) missing->push_back(std::string(label) + " feature #" + std::to_string(i));
    }
}

// What `device`, used through Vulkan `api`, lacks of `r`: a list such as "Vulkan 1.3,
// VK_KHR_push_descriptor, Vulkan 1.2 feature #7", empty when it has everything.
std::string missingRequirements(VkPhysicalDevice device, uint32_t api, const DeviceRequirements& r) {
    std::vector<std::string> missing;
    if (api < r.apiVersion) {
        missing.push_back("Vulkan " + std::to_string(VK_API_VERSION_MAJOR(r.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(r.apiVersion)));
    }
    for (const std::string& e : r.extensions) {
        if (!hasDeviceExtension(device, e.c_str())) missing.push_back(e);
    }
    // What the device offers (each versioned structure only where the device has its version).
    VkPhysicalDeviceVulkan11Features have11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    if (api >= VK_API_VERSION_1_2) {
        have.pNext = &have11;
        have11.pNext = &have12;
        if (api >= VK_API_VERSION_1_3) have12.pNext = &have13;
    }
    vkGetPhysicalDeviceFeatures2(device, &have);
    compareFeatures(r.features10, have.features, 0, "Vulkan 1.0", &missing);
    compareFeatures(r.features11, have11, offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess),
                    "Vulkan 1.1", &missing);
    compareFeatures(r.features12, have12, offsetof(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge),
                    "Vulkan 1.2", &missing);
    compareFeatures(r.features13, have13, offsetof(VkPhysicalDeviceVulkan13Features, robustImageAccess),
                    "Vulkan 1.3", &missing);
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    return list;
}

uint32_t instanceVersion() {
    uint32_t version = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion != nullptr) vkEnumerateInstanceVersion(&version);
    return version;
}

VkInstance createBareInstance(uint32_t apiVersion) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort";
    app.apiVersion = apiVersion;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreateInstance(&info, nullptr, &instance));
    volkLoadInstanceOnly(instance);
    return instance;
}

} // namespace

void printDevices() {
    for (const DeviceSummary& d : listDevices()) {
        std::printf("%u: %s (%s, Vulkan %u.%u, %s)\n", d.index, d.name.c_str(), deviceTypeName(d.type),
                    VK_API_VERSION_MAJOR(d.apiVersion), VK_API_VERSION_MINOR(d.apiVersion), d.driverInfo.c_str());
    }
}

std::vector<DeviceSummary> listDevices() {
    initializeVolk();
    VkInstance instance = createBareInstance(std::min(instanceVersion(), uint32_t(VK_API_VERSION_1_3)));
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    std::vector<DeviceSummary> out;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p.pNext = &driver;
        vkGetPhysicalDeviceProperties2(devices[i], &p);
        out.push_back({i, p.properties.deviceName, p.properties.deviceType, p.properties.apiVersion,
                       p.properties.driverVersion, std::string(driver.driverName) + " " + driver.driverInfo});
    }
    vkDestroyInstance(instance, nullptr);
    return out;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    auto* self = static_cast<Context*>(user);
    std::string text = data->pMessage != nullptr ? data->pMessage : "(no message)";
    std::fprintf(stderr, "validation: %s\n", text.c_str());
    std::lock_guard<std::mutex> lock(self->messageMutex_);
    self->messages_.push_back(text);
    return VK_FALSE;
}

Context::Context(const ContextOptions& options) {
    initializeVolk();
    const char* validationEnv = std::getenv("VKSORT_VALIDATION");
    bool wantValidation = options.validation && !(validationEnv != nullptr && std::strcmp(validationEnv, "0") == 0);
    validation_ = wantValidation && hasLayer("VK_LAYER_KHRONOS_validation");

    apiVersion_ = options.minimalVulkan11 ? VK_API_VERSION_1_1 : std::min(instanceVersion(), uint32_t(VK_API_VERSION_1_3));
    if (instanceVersion() < VK_API_VERSION_1_1) {
        std::fprintf(stderr, "the Vulkan loader offers only Vulkan 1.0; vksort needs 1.1\n");
        std::exit(1);
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort";
    app.apiVersion = apiVersion_;
    std::vector<const char*> layers, extensions;
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = debugCallback;
    messengerInfo.pUserData = this;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    if (validation_) {
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        info.pNext = &messengerInfo; // also catches messages from instance creation
        if (options.synchronizationValidation) {
            extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
            features.pNext = &messengerInfo;
            info.pNext = &features;
        }
    }
    info.enabledLayerCount = uint32_t(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VKCTX_CHECK(vkCreateInstance(&info, nullptr, &instance_));
    volkLoadInstance(instance_);
    if (validation_) VKCTX_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &messengerInfo, nullptr, &messenger_));

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    if (count == 0) {
        std::fprintf(stderr, "no Vulkan device found\n");
        std::exit(1);
    }
    int chosen = -1;
    if (options.deviceIndex >= 0) {
        if (uint32_t(options.deviceIndex) >= count) {
            std::fprintf(stderr, "--device %d: no such device (%u present; --list-devices lists them)\n",
                         options.deviceIndex, count);
            std::exit(2);
        }
        chosen = options.deviceIndex;
    } else {
        int bestRank = 1 << 30;
        for (uint32_t i = 0; i < count; ++i) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(devices[i], &p);
            if (!options.deviceName.empty()) {
                if (lower(p.deviceName).find(lower(options.deviceName)) != std::string::npos) {
                    chosen = int(i);
                    break;
                }
                continue;
            }
            if (typeRank(p.deviceType) < bestRank) {
                bestRank = typeRank(p.deviceType);
                chosen = int(i);
            }
        }
        if (chosen < 0) {
            std::fprintf(stderr, "--device %s: no Vulkan device's name contains it (--list-devices lists them)\n",
                         options.deviceName.c_str());
            std::exit(2);
        }
    }
    physicalDevice_ = devices[size_t(chosen)];

    subgroup_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    driver_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    subgroup_.pNext = &driver_;
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &subgroup_;
    vkGetPhysicalDeviceProperties2(physicalDevice_, &properties2);
    properties_ = properties2.properties;
    subgroup_.pNext = nullptr;
    driver_.pNext = nullptr;

    // The versioned feature structures go to the device's creation only for a caller with
    // requirements, and each only where the device has its version.
    const uint32_t deviceApi = std::min(apiVersion_, properties_.apiVersion);
    const bool withRequirements = bool(options.requirements);
    DeviceRequirements required;
    if (withRequirements) {
        required = options.requirements(*this);
        std::string missing = missingRequirements(physicalDevice_, deviceApi, required);
        if (!missing.empty()) {
            std::fprintf(stderr, "%s cannot run on %s, which lacks: %s\n", required.requester.c_str(),
                         properties_.deviceName, missing.c_str());
            std::exit(1);
        }
    }
    const bool features12 = withRequirements && deviceApi >= VK_API_VERSION_1_2;
    const bool features13 = withRequirements && deviceApi >= VK_API_VERSION_1_3;

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, families.data());
    // Prefer a family with graphics (where a renderer would record) that also has compute.
    int family = -1;
    for (uint32_t i = 0; i < familyCount && family < 0; ++i) {
        if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
            family = int(i);
        }
    }
    for (uint32_t i = 0; i < familyCount && family < 0; ++i) {
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = int(i);
    }
    if (family < 0) {
        std::fprintf(stderr, "device has no compute queue\n");
        std::exit(1);
    }
    queueFamily_ = uint32_t(family);
    timestampValidBits_ = families[queueFamily_].timestampValidBits;

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;

    std::vector<const char*> deviceExtensions;
    auto addExtension = [&](const char* name) {
        auto same = [&](const char* e) { return std::strcmp(e, name) == 0; };
        if (std::none_of(deviceExtensions.begin(), deviceExtensions.end(), same)) deviceExtensions.push_back(name);
    };
    VkPhysicalDeviceSubgroupSizeControlFeatures sizeControl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
    const bool sizeControlCore = apiVersion_ >= VK_API_VERSION_1_3 && properties_.apiVersion >= VK_API_VERSION_1_3;
    const bool sizeControlExtension =
        !sizeControlCore && hasDeviceExtension(physicalDevice_, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    if (sizeControlCore || sizeControlExtension) {
        // What the device offers, for messages about a subgroup size it cannot require.
        VkPhysicalDeviceSubgroupSizeControlFeatures offered{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
        VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        features2.pNext = &offered;
        vkGetPhysicalDeviceFeatures2(physicalDevice_, &features2);
        VkPhysicalDeviceSubgroupSizeControlProperties range{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
        VkPhysicalDeviceProperties2 rangeProperties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        rangeProperties.pNext = &range;
        vkGetPhysicalDeviceProperties2(physicalDevice_, &rangeProperties);
        sizeControl_.offered = offered.subgroupSizeControl == VK_TRUE;
        sizeControl_.minSize = range.minSubgroupSize;
        sizeControl_.maxSize = range.maxSubgroupSize;
        sizeControl_.requiredSizeStages = range.requiredSubgroupSizeStages;
    }
    if (!options.minimalVulkan11 && options.subgroupSizeControl) {
        const bool core = sizeControlCore;
        const bool extension = sizeControlExtension;
        if (core || extension) {
            VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
            VkPhysicalDeviceSubgroupSizeControlFeatures query{
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
            supported.pNext = &query;
            vkGetPhysicalDeviceFeatures2(physicalDevice_, &supported);
            if (query.subgroupSizeControl && query.computeFullSubgroups) {
                // The Vulkan 1.3 feature structure, where it goes, carries these instead (a
                // device's creation may not name both).
                if (features13) {
                    required.features13.subgroupSizeControl = VK_TRUE;
                    required.features13.computeFullSubgroups = VK_TRUE;
                } else {
                    sizeControl.subgroupSizeControl = VK_TRUE;
                    sizeControl.computeFullSubgroups = VK_TRUE;
                    deviceInfo.pNext = &sizeControl;
                }
                if (extension) addExtension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
                sizeControlEnabled_ = true;
            }
        }
    }
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statistics{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    if (options.pipelineStatistics &&
        hasDeviceExtension(physicalDevice_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        statistics.pipelineExecutableInfo = VK_TRUE;
        statistics.pNext = const_cast<void*>(deviceInfo.pNext);
        deviceInfo.pNext = &statistics;
        addExtension(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        statisticsEnabled_ = true;
    }
    if (options.pushDescriptors && !options.minimalVulkan11 &&
        hasDeviceExtension(physicalDevice_, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
        addExtension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
        pushDescriptorsEnabled_ = true;
    }
    // With requirements: features2, then 1.1, 1.2 and 1.3 where they go, then what came before.
    VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    if (withRequirements) {
        for (const std::string& e : required.extensions) addExtension(e.c_str());
        features2.features = required.features10;
        required.features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
        required.features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
        required.features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
        required.features13.pNext = const_cast<void*>(deviceInfo.pNext);
        required.features12.pNext = features13 ? static_cast<void*>(&required.features13) : required.features13.pNext;
        required.features11.pNext = &required.features12;
        features2.pNext = features12 ? static_cast<void*>(&required.features11) : required.features13.pNext;
        deviceInfo.pNext = &features2;
    }
    deviceInfo.enabledExtensionCount = uint32_t(deviceExtensions.size());
    deviceInfo.ppEnabledExtensionNames = deviceExtensions.data();
    VKCTX_CHECK(vkCreateDevice(physicalDevice_, &deviceInfo, nullptr, &device_));
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = queueFamily_;
    VKCTX_CHECK(vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool_));
}

Context::~Context() {
    if (device_ != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device_);
        vkDestroyCommandPool(device_, commandPool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::string Context::driverDescription() const {
    std::string name = driver_.driverName;
    std::string info = driver_.driverInfo;
    if (name.empty()) return "driver " + std::to_string(properties_.driverVersion);
    return info.empty() ? name : name + " " + info;
}

std::vector<std::string> Context::validationMessages() const {
    std::lock_guard<std::mutex> lock(messageMutex_);
    return messages_;
}

size_t Context::validationMessageCount() const {
    std::lock_guard<std::mutex> lock(messageMutex_);
    return messages_.size();
}

void Context::clearValidationMessages() {
    std::lock_guard<std::mutex> lock(messageMutex_);
    messages_.clear();
}

uint32_t Context::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags flags) const {
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if ((typeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
    }
    return UINT32_MAX;
}

Buffer Context::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible) {
    Buffer b;
    b.size = size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VKCTX_CHECK(vkCreateBuffer(device_, &info, nullptr, &b.buffer));
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device_, b.buffer, &requirements);
    VkMemoryPropertyFlags flags = hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t type = findMemoryType(requirements.memoryTypeBits, flags);
    if (type == UINT32_MAX) fail("findMemoryType", VK_ERROR_OUT_OF_DEVICE_MEMORY, __FILE__, __LINE__);
    VkMemoryAllocateFlagsInfo allocateFlags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    allocateFlags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    if (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) allocate.pNext = &allocateFlags;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = type;
    VKCTX_CHECK(vkAllocateMemory(device_, &allocate, nullptr, &b.memory));
    VKCTX_CHECK(vkBindBufferMemory(device_, b.buffer, b.memory, 0));
    if (hostVisible) VKCTX_CHECK(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

void Context::destroyBuffer(Buffer& b) {
    if (b.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_, b.buffer, nullptr);
    if (b.memory != VK_NULL_HANDLE) vkFreeMemory(device_, b.memory, nullptr);
    b = Buffer{};
}

void Context::upload(const Buffer& buffer, VkDeviceSize offset, const void* data, VkDeviceSize size) {
    if (size == 0) return;
    if (buffer.mapped != nullptr) {
        std::memcpy(static_cast<char*>(buffer.mapped) + offset, data, size_t(size));
        return;
    }
    Buffer staging = createBuffer(size, 0, true);
    std::memcpy(staging.mapped, data, size_t(size));
    submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, offset, size};
        vkCmdCopyBuffer(cmd, staging.buffer, buffer.buffer, 1, &region);
    });
    destroyBuffer(staging);
}

void Context::download(const Buffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize size) {
    if (size == 0) return;
    if (buffer.mapped != nullptr) {
        std::memcpy(data, static_cast<const char*>(buffer.mapped) + offset, size_t(size));
        return;
    }
    Buffer staging = createBuffer(size, 0, true);
    submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy region{offset, 0, size};
        vkCmdCopyBuffer(cmd, buffer.buffer, staging.buffer, 1, &region);
    });
    std::memcpy(data, staging.mapped, size_t(size));
    destroyBuffer(staging);
}

VkCommandBuffer Context::allocateCommandBuffer() {
    std::lock_guard<std::mutex> lock(poolMutex_);
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = commandPool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VKCTX_CHECK(vkAllocateCommandBuffers(device_, &info, &cmd));
    return cmd;
}

void Context::freeCommandBuffer(VkCommandBuffer cmd) {
    std::lock_guard<std::mutex> lock(poolMutex_);
    vkFreeCommandBuffers(device_, commandPool_, 1, &cmd);
}

void Context::submitAndWait(VkCommandBuffer cmd) {
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreateFence(device_, &fenceInfo, nullptr, &fence));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    VKCTX_CHECK(vkQueueSubmit(queue_, 1, &submit, fence));
    VKCTX_CHECK(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(device_, fence, nullptr);
}

VkQueryPool Context::createTimestampPool(uint32_t count) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreateQueryPool(device_, &info, nullptr, &pool));
    return pool;
}

std::vector<double> Context::timestampSpansMs(VkQueryPool pool, uint32_t spans) {
    std::vector<uint64_t> stamps(2 * size_t(spans));
    VKCTX_CHECK(vkGetQueryPoolResults(device_, pool, 0, 2 * spans, stamps.size() * sizeof(uint64_t), stamps.data(),
                                      sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const uint64_t mask = timestampValidBits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << timestampValidBits_) - 1;
    const double tickMs = double(properties_.limits.timestampPeriod) * 1e-6;
    std::vector<double> ms(spans);
    for (uint32_t r = 0; r < spans; ++r) ms[r] = double((stamps[2 * r + 1] - stamps[2 * r]) & mask) * tickMs;
    return ms;
}

void Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBuffer cmd = allocateCommandBuffer();
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKCTX_CHECK(vkBeginCommandBuffer(cmd, &begin));
    record(cmd);
    VKCTX_CHECK(vkEndCommandBuffer(cmd));
    submitAndWait(cmd);
    freeCommandBuffer(cmd);
}

VksortSorterCreateInfo sorterCreateInfo(const Context& ctx) {
    VksortSorterCreateInfo info{};
    info.apiVersion = ctx.apiVersion();
    info.instance = ctx.instance();
    info.physicalDevice = ctx.physicalDevice();
    info.device = ctx.device();
    info.pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    info.pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    info.flags = ctx.subgroupSizeControlEnabled() ? VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT : 0;
    if (ctx.pushDescriptorsEnabled()) info.flags |= VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT;
    return info;
}

ComputeKernel::ComputeKernel(Context& ctx, const uint32_t* words, size_t wordCount,
                             const std::vector<VkBuffer>& buffers, uint32_t pushBytes)
    : ctx_(ctx), pushBytes_(pushBytes) {
    VkDevice device = ctx.device();
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t i = 0; i < buffers.size(); ++i) {
        bindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    }
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    VKCTX_CHECK(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout_));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout_;
    layoutInfo.pushConstantRangeCount = pushBytes != 0 ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    VKCTX_CHECK(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_));
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = wordCount * 4;
    moduleInfo.pCode = words;
    VkShaderModule module = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreateShaderModule(device, &moduleInfo, nullptr, &module));
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout_;
    VKCTX_CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_));
    vkDestroyShaderModule(device, module, nullptr);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(buffers.size())};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    VKCTX_CHECK(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool_));
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &setLayout_;
    VKCTX_CHECK(vkAllocateDescriptorSets(device, &allocate, &set_));
    std::vector<VkDescriptorBufferInfo> infos;
    for (VkBuffer b : buffers) infos.push_back({b, 0, VK_WHOLE_SIZE});
    std::vector<VkWriteDescriptorSet> writes;
    for (uint32_t i = 0; i < buffers.size(); ++i) {
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set_;
        w.dstBinding = i;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &infos[i];
        writes.push_back(w);
    }
    vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);
}

ComputeKernel::~ComputeKernel() {
    VkDevice device = ctx_.device();
    vkDestroyDescriptorPool(device, pool_, nullptr);
    vkDestroyPipeline(device, pipeline_, nullptr);
    vkDestroyPipelineLayout(device, layout_, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout_, nullptr);
}

void ComputeKernel::record(VkCommandBuffer cmd, const void* push, uint32_t groups) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    if (pushBytes_ != 0) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes_, push);
    vkCmdDispatch(cmd, groups, 1, 1);
}

} // namespace vkctx
