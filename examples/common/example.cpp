// SPDX-License-Identifier: MIT
#include "example.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace example {

static int messages = 0;

void fail(VkResult result, const char* call, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: %s failed: VkResult %d\n", file, line, call, int(result));
    std::exit(2);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
    ++messages;
    return VK_FALSE;
}

int validationMessages() { return messages; }

Context createContext(const char* name, VkQueueFlags queueFlags) {
    Context c{};
    c.apiVersion = VK_API_VERSION_1_1; // all vksort needs, and all the examples use
#if EXAMPLE_VOLK
    CHECK(volkInitialize());
#endif
    const char* env = std::getenv("VKSORT_VALIDATION");
    uint32_t layerCount = 0;
    vkEnumerateInstanceLayerProperties(&layerCount, nullptr);
    std::vector<VkLayerProperties> layers(layerCount);
    vkEnumerateInstanceLayerProperties(&layerCount, layers.data());
    for (const VkLayerProperties& l : layers) c.validation |= !std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation");
    if (env && !std::strcmp(env, "1") && !c.validation) std::fprintf(stderr, "no validation layer\n"), std::exit(2);
    c.validation = c.validation && !(env && !std::strcmp(env, "0"));
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onMessage;
    // Chained into the instance info too, so that instance creation and destruction are covered.
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, &messengerInfo, 1, &sync};
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, name, 0, nullptr, 0, c.apiVersion};
    VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, c.validation ? &features : nullptr, 0,
                                      &app, c.validation ? 1u : 0u, &layer, c.validation ? 2u : 0u, extensions};
    CHECK(vkCreateInstance(&instanceInfo, nullptr, &c.instance));
#if EXAMPLE_VOLK
    volkLoadInstance(c.instance);
#endif
    if (c.validation) { // an extension's function: the loader exports none, so ask for it either way
        auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(c.instance, "vkCreateDebugUtilsMessengerEXT"));
        CHECK(createMessenger(c.instance, &messengerInfo, nullptr, &c.messenger));
    }

    uint32_t gpuCount = 1, familyCount = 0;
    VkResult enumerated = vkEnumeratePhysicalDevices(c.instance, &gpuCount, &c.gpu);
    if (enumerated != VK_INCOMPLETE) CHECK(enumerated);
    if (gpuCount == 0) std::fprintf(stderr, "no Vulkan device\n"), std::exit(2);
    vkGetPhysicalDeviceQueueFamilyProperties(c.gpu, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(c.gpu, &familyCount, families.data());
    while (c.family < familyCount && (families[c.family].queueFlags & queueFlags) != queueFlags) ++c.family;
    if (c.family == familyCount) std::fprintf(stderr, "no queue family with flags 0x%x\n", queueFlags), std::exit(2);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, c.family, 1, &priority};
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, nullptr, 0, 1, &queueInfo};
    CHECK(vkCreateDevice(c.gpu, &deviceInfo, nullptr, &c.device));
#if EXAMPLE_VOLK
    volkLoadDevice(c.device);
#endif
    vkGetDeviceQueue(c.device, c.family, 0, &c.queue);

    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                     VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, c.family};
    CHECK(vkCreateCommandPool(c.device, &poolInfo, nullptr, &c.commandPool));
    VkCommandBufferAllocateInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, c.commandPool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    CHECK(vkAllocateCommandBuffers(c.device, &cmdInfo, &c.cmd));
    return c;
}

void destroyContext(Context& c) {
    vkDestroyCommandPool(c.device, c.commandPool, nullptr);
    vkDestroyDevice(c.device, nullptr);
    if (c.messenger != VK_NULL_HANDLE)
        reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(c.instance, "vkDestroyDebugUtilsMessengerEXT"))(c.instance, c.messenger, nullptr);
    vkDestroyInstance(c.instance, nullptr);
    c = Context{};
}

VksortSorter createSorter(const Context& c, uint32_t keyTypes, uint32_t valueTypes) {
    VksortSorterCreateInfo info{};
    info.apiVersion = c.apiVersion; // what the instance was created with
    info.instance = c.instance;
    info.physicalDevice = c.gpu;
    info.device = c.device;
    info.pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    info.pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    info.keyTypes = keyTypes; // the formats this sorter serves (0 would compile every format's pipelines)
    info.valueTypes = valueTypes;
    VksortSorter sorter;
    CHECK(vksortCreateSorter(&info, &sorter));
    return sorter;
}

VkDeviceMemory allocateMemory(const Context& c, const VkMemoryRequirements& req, bool hostVisible) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(c.gpu, &props);
    const VkMemoryPropertyFlags want = hostVisible
                                           ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                           : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, UINT32_MAX};
    for (uint32_t i = 0; i < props.memoryTypeCount && alloc.memoryTypeIndex == UINT32_MAX; ++i)
        if ((req.memoryTypeBits >> i & 1u) && (props.memoryTypes[i].propertyFlags & want) == want)
            alloc.memoryTypeIndex = i;
    if (alloc.memoryTypeIndex == UINT32_MAX) CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(c.device, &alloc, nullptr, &memory));
    return memory;
}

Buffer createBuffer(const Context& c, VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible) {
    Buffer b{};
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage};
    CHECK(vkCreateBuffer(c.device, &info, nullptr, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(c.device, b.buffer, &req);
    b.memory = allocateMemory(c, req, hostVisible);
    CHECK(vkBindBufferMemory(c.device, b.buffer, b.memory, 0));
    if (hostVisible) CHECK(vkMapMemory(c.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

void destroyBuffer(const Context& c, Buffer& b) {
    vkDestroyBuffer(c.device, b.buffer, nullptr);
    vkFreeMemory(c.device, b.memory, nullptr);
    b = Buffer{};
}

VkShaderModule createShaderModule(const Context& c, const uint32_t* code, size_t bytes) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, bytes, code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(c.device, &info, nullptr, &module));
    return module;
}

VkPipeline createComputePipeline(const Context& c, const uint32_t* code, size_t bytes, VkPipelineLayout layout) {
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                  createShaderModule(c, code, bytes), "main"};
    info.layout = layout;
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    vkDestroyShaderModule(c.device, info.stage.module, nullptr);
    return pipeline;
}

StorageLayout createStorageLayout(const Context& c, uint32_t bindings, VkShaderStageFlags stages, uint32_t pushBytes,
                                  uint32_t setCount, const VkDescriptorBufferInfo* ranges, VkDescriptorSet* sets) {
    StorageLayout l{};
    std::vector<VkDescriptorSetLayoutBinding> slots(bindings);
    for (uint32_t i = 0; i < bindings; ++i) slots[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr};
    VkDescriptorSetLayoutCreateInfo setLayoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0,
                                                  bindings, slots.data()};
    CHECK(vkCreateDescriptorSetLayout(c.device, &setLayoutInfo, nullptr, &l.setLayout));
    VkPushConstantRange pushRange{stages, 0, pushBytes};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &l.setLayout, 1,
                                          &pushRange};
    CHECK(vkCreatePipelineLayout(c.device, &layoutInfo, nullptr, &l.layout));
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bindings * setCount};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, setCount, 1,
                                        &poolSize};
    CHECK(vkCreateDescriptorPool(c.device, &poolInfo, nullptr, &l.pool));
    const std::vector<VkDescriptorSetLayout> setLayouts(setCount, l.setLayout);
    VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, l.pool, setCount,
                                        setLayouts.data()};
    CHECK(vkAllocateDescriptorSets(c.device, &setInfo, sets));
    for (uint32_t s = 0; s < setCount; ++s) {
        // One write per set: consecutive bindings in one write must share type and stage flags,
        // which is why every binding is visible to all of `stages`.
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, sets[s], 0, 0, bindings,
                                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, ranges + size_t(s) * bindings};
        vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
    }
    return l;
}

void destroyStorageLayout(const Context& c, StorageLayout& l) {
    vkDestroyDescriptorPool(c.device, l.pool, nullptr);
    vkDestroyPipelineLayout(c.device, l.layout, nullptr);
    vkDestroyDescriptorSetLayout(c.device, l.setLayout, nullptr);
    l = StorageLayout{};
}

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages, VkAccessFlags srcAccess,
             VkPipelineStageFlags dstStages, VkAccessFlags dstAccess) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, srcAccess, dstAccess};
    vkCmdPipelineBarrier(cmd, srcStages, dstStages, 0, 1, &b, 0, nullptr, 0, nullptr);
}

VkCommandBuffer begin(const Context& c) {
    CHECK(vkResetCommandBuffer(c.cmd, 0));
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                  VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(c.cmd, &info));
    return c.cmd;
}

void submitAndWait(const Context& c) {
    CHECK(vkEndCommandBuffer(c.cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &c.cmd};
    CHECK(vkQueueSubmit(c.queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(c.queue));
}

} // namespace example
