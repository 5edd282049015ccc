// SPDX-License-Identifier: MIT
#include "peer_context.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace peerctx {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& l : layers) {
        if (std::strcmp(l.layerName, name) == 0) return true;
    }
    return false;
}

// Lower ranks first: discrete, integrated, virtual, CPU, other.
int typeRank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

// The VkBool32 members of a feature structure, from `first` to the end: every feature the
// structure `want` asks for that `have` lacks is named by its index in `missing`.
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

} // namespace

VKAPI_ATTR VkBool32 VKAPI_CALL Context::debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    auto* self = static_cast<Context*>(user);
    std::fprintf(stderr, "validation: %s\n", data->pMessage != nullptr ? data->pMessage : "(no message)");
    std::lock_guard<std::mutex> lock(self->messageMutex_);
    ++self->messages_;
    return VK_FALSE;
}

Context::Context(const Options& options) {
    VKCTX_CHECK(volkInitialize());
    const char* env = std::getenv("VKSORT_VALIDATION");
    validation_ = options.validation && !(env != nullptr && std::strcmp(env, "0") == 0) &&
                  hasLayer("VK_LAYER_KHRONOS_validation");
    instanceApi_ = std::min(volkGetInstanceVersion(), uint32_t(VK_API_VERSION_1_3));
    if (instanceApi_ < VK_API_VERSION_1_2) {
        std::fprintf(stderr, "the Vulkan loader offers Vulkan %u.%u; the peer libraries need 1.2 or later\n",
                     VK_API_VERSION_MAJOR(instanceApi_), VK_API_VERSION_MINOR(instanceApi_));
        std::exit(1);
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort-peers";
    app.apiVersion = instanceApi_;
    std::vector<const char*> layers, extensions;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    messengerInfo.pfnUserCallback = debugCallback;
    messengerInfo.pUserData = this;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    if (validation_) {
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        info.pNext = &messengerInfo;
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
            std::fprintf(stderr, "--device %d: no such device (%u present)\n", options.deviceIndex, count);
            std::exit(2);
        }
        chosen = options.deviceIndex;
    } else {
        int best = 1 << 30;
        for (uint32_t i = 0; i < count; ++i) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(devices[i], &p);
            if (!options.deviceName.empty()) {
                if (lower(p.deviceName).find(lower(options.deviceName)) != std::string::npos) {
                    chosen = int(i);
                    break;
                }
            } else if (typeRank(p.deviceType) < best) {
                best = typeRank(p.deviceType);
                chosen = int(i);
            }
        }
        if (chosen < 0) {
            std::fprintf(stderr, "--device %s: no Vulkan device's name contains it\n", options.deviceName.c_str());
            std::exit(2);
        }
    }
    physicalDevice_ = devices[size_t(chosen)];
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    subgroup.pNext = &driver_;
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(physicalDevice_, &properties2);
    properties_ = properties2.properties;
    subgroupSize_ = subgroup.subgroupSize;
    driver_.pNext = nullptr;
}

bool Context::createDevice(const Requirements& r, std::string* why) {
    std::vector<std::string> missing;
    uint32_t api = std::min(instanceApi_, properties_.apiVersion);
    if (api < r.apiVersion) {
        missing.push_back("Vulkan " + std::to_string(VK_API_VERSION_MAJOR(r.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(r.apiVersion)));
    }
    uint32_t extensionCount = 0;
    vkEnumerateDeviceExtensionProperties(physicalDevice_, nullptr, &extensionCount, nullptr);
    std::vector<VkExtensionProperties> offered(extensionCount);
    vkEnumerateDeviceExtensionProperties(physicalDevice_, nullptr, &extensionCount, offered.data());
    std::vector<const char*> extensions;
    for (const std::string& e : r.extensions) {
        bool found = std::any_of(offered.begin(), offered.end(),
                                 [&](const VkExtensionProperties& p) { return e == p.extensionName; });
        if (!found) missing.push_back(e);
        extensions.push_back(e.c_str());
    }
    // What the device offers (the Vulkan 1.3 structure only where the device has 1.3).
    VkPhysicalDeviceVulkan11Features have11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    have.pNext = &have11;
    have11.pNext = &have12;
    const bool v13 = api >= VK_API_VERSION_1_3;
    if (v13) have12.pNext = &have13;
    vkGetPhysicalDeviceFeatures2(physicalDevice_, &have);
    compareFeatures(r.features10, have.features, 0, "Vulkan 1.0", &missing);
    compareFeatures(r.features11, have11, offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess),
                    "Vulkan 1.1", &missing);
    compareFeatures(r.features12, have12, offsetof(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge),
                    "Vulkan 1.2", &missing);
    VkPhysicalDeviceVulkan13Features none13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    compareFeatures(r.features13, v13 ? have13 : none13, offsetof(VkPhysicalDeviceVulkan13Features, robustImageAccess),
                    "Vulkan 1.3", &missing);
    if (!missing.empty()) {
        why->clear();
        for (const std::string& m : missing) *why += (why->empty() ? "" : ", ") + m;
        return false;
    }

    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan11Features f11 = r.features11;
    VkPhysicalDeviceVulkan12Features f12 = r.features12;
    VkPhysicalDeviceVulkan13Features f13 = r.features13;
    features.features = r.features10;
    features.pNext = &f11;
    f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f11.pNext = &f12;
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f12.pNext = v13 ? &f13 : nullptr;
    f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f13.pNext = nullptr;

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, families.data());
    int family = -1; // graphics and compute (where a renderer records), else compute
    for (uint32_t i = 0; i < familyCount && family < 0; ++i) {
        if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
            family = int(i);
        }
    }
    for (uint32_t i = 0; i < familyCount && family < 0; ++i) {
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = int(i);
    }
    if (family < 0) {
        *why = "a compute queue";
        return false;
    }
    queueFamily_ = uint32_t(family);
    timestampValidBits_ = families[queueFamily_].timestampValidBits;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.pNext = &features;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.enabledExtensionCount = uint32_t(extensions.size());
    deviceInfo.ppEnabledExtensionNames = extensions.data();
    VKCTX_CHECK(vkCreateDevice(physicalDevice_, &deviceInfo, nullptr, &device_));
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = queueFamily_;
    VKCTX_CHECK(vkCreateCommandPool(device_, &poolInfo, nullptr, &pool_));
    return true;
}

Context::~Context() {
    if (device_ != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device_);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::string Context::driverDescription() const {
    std::string name = driver_.driverName, info = driver_.driverInfo;
    if (name.empty()) return "driver " + std::to_string(properties_.driverVersion);
    return info.empty() ? name : name + " " + info;
}

size_t Context::validationMessageCount() const {
    std::lock_guard<std::mutex> lock(messageMutex_);
    return messages_;
}

vkctx::Buffer Context::createRaw(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags flags,
                                 bool deviceAddress) {
    vkctx::Buffer b;
    b.size = size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VKCTX_CHECK(vkCreateBuffer(device_, &info, nullptr, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &memory);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < memory.memoryTypeCount && type == UINT32_MAX; ++i) {
        if ((req.memoryTypeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & flags) == flags) type = i;
    }
    if (type == UINT32_MAX) vkctx::fail("memory type search", VK_ERROR_OUT_OF_DEVICE_MEMORY, __FILE__, __LINE__);
    VkMemoryAllocateFlagsInfo allocateFlags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    allocateFlags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.pNext = deviceAddress ? &allocateFlags : nullptr;
    allocate.allocationSize = req.size;
    allocate.memoryTypeIndex = type;
    VKCTX_CHECK(vkAllocateMemory(device_, &allocate, nullptr, &b.memory));
    VKCTX_CHECK(vkBindBufferMemory(device_, b.buffer, b.memory, 0));
    if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) VKCTX_CHECK(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

vkctx::Buffer Context::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool deviceAddress) {
    return createRaw(size, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, deviceAddress);
}

void Context::destroyBuffer(vkctx::Buffer& b) {
    if (b.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_, b.buffer, nullptr);
    if (b.memory != VK_NULL_HANDLE) vkFreeMemory(device_, b.memory, nullptr);
    b = vkctx::Buffer{};
}

void Context::upload(const vkctx::Buffer& buffer, const void* data, VkDeviceSize size) {
    if (size == 0) return;
    vkctx::Buffer staging =
        createRaw(size, 0, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, false);
    std::memcpy(staging.mapped, data, size_t(size));
    submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, size};
        vkCmdCopyBuffer(cmd, staging.buffer, buffer.buffer, 1, &region);
    });
    destroyBuffer(staging);
}

void Context::download(const vkctx::Buffer& buffer, VkDeviceSize offset, void* data, VkDeviceSize size) {
    if (size == 0) return;
    vkctx::Buffer staging =
        createRaw(size, 0, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, false);
    submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy region{offset, 0, size};
        vkCmdCopyBuffer(cmd, buffer.buffer, staging.buffer, 1, &region);
    });
    std::memcpy(data, staging.mapped, size_t(size));
    destroyBuffer(staging);
}

VkCommandBuffer Context::allocateCommandBuffer() {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VKCTX_CHECK(vkAllocateCommandBuffers(device_, &info, &cmd));
    return cmd;
}

void Context::freeCommandBuffer(VkCommandBuffer cmd) { vkFreeCommandBuffers(device_, pool_, 1, &cmd); }

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

} // namespace peerctx
