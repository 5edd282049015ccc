// SPDX-License-Identifier: MIT
// A renderer that loads Vulkan with volk (VK_NO_PROTOTYPES: there are no global vk* symbols)
// sorts 6000 key-value pairs with vksort and checks them on the host.
//
// What it shows: volk's function pointers are what vksort needs. After volkInitialize() and
// volkLoadInstance(), vkGetInstanceProcAddr is volk's pointer to the loader's entry point; pass
// it (and volk's vkGetDeviceProcAddr) to vksortCreateSorter. vksort fills its own table from them.
//
// Exit status: 0 sorted correctly, 1 wrong result, 2 a Vulkan or vksort call failed.
#include <volk.h> // defines VK_NO_PROTOTYPES before <vulkan/vulkan_core.h>

#include <vksort/vksort.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        VkResult result_ = (call);                                                          \
        if (result_ != VK_SUCCESS) {                                                        \
            std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, int(result_)); \
            std::exit(2);                                                                   \
        }                                                                                   \
    } while (false)

namespace {

constexpr uint32_t kCount = 6000;

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
};

// One buffer in its own host-visible, coherent allocation (a renderer would use its allocator).
Buffer createBuffer(VkPhysicalDevice gpu, VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage) {
    Buffer b;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    CHECK(vkCreateBuffer(device, &info, nullptr, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = UINT32_MAX;
    for (uint32_t i = 0; i < props.memoryTypeCount && alloc.memoryTypeIndex == UINT32_MAX; ++i) {
        if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
            alloc.memoryTypeIndex = i;
    }
    if (alloc.memoryTypeIndex == UINT32_MAX) CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    CHECK(vkAllocateMemory(device, &alloc, nullptr, &b.memory));
    CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
    CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

void destroyBuffer(VkDevice device, Buffer& b) {
    vkDestroyBuffer(device, b.buffer, nullptr);
    vkFreeMemory(device, b.memory, nullptr);
}

} // namespace

int main() {
    // ---- The renderer's own start-up: volk, instance, device. --------------------------------
    CHECK(volkInitialize());
    const uint32_t apiVersion = VK_API_VERSION_1_1;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort-consumer-volk";
    app.apiVersion = apiVersion;
    VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instanceInfo.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    CHECK(vkCreateInstance(&instanceInfo, nullptr, &instance));
    volkLoadInstance(instance);

    // The first device with a compute queue.
    uint32_t gpuCount = 0;
    CHECK(vkEnumeratePhysicalDevices(instance, &gpuCount, nullptr));
    std::vector<VkPhysicalDevice> gpus(gpuCount);
    CHECK(vkEnumeratePhysicalDevices(instance, &gpuCount, gpus.data()));
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    uint32_t family = 0;
    for (VkPhysicalDevice candidate : gpus) {
        uint32_t n = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &n, nullptr);
        std::vector<VkQueueFamilyProperties> families(n);
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &n, families.data());
        for (uint32_t f = 0; f < n && gpu == VK_NULL_HANDLE; ++f) {
            if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                gpu = candidate;
                family = f;
            }
        }
        if (gpu != VK_NULL_HANDLE) break;
    }
    if (gpu == VK_NULL_HANDLE) {
        std::fprintf(stderr, "no Vulkan device with a compute queue\n");
        return 2;
    }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    VkDevice device = VK_NULL_HANDLE;
    CHECK(vkCreateDevice(gpu, &deviceInfo, nullptr, &device));
    volkLoadDevice(device);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, family, 0, &queue);

    // ---- vksort on that device, through volk's pointers. -------------------------------------
    VksortSorterCreateInfo sorterInfo{};
    sorterInfo.apiVersion = apiVersion;
    sorterInfo.instance = instance;
    sorterInfo.physicalDevice = gpu;
    sorterInfo.device = device;
    sorterInfo.pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    sorterInfo.pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    VksortSorter sorter = VK_NULL_HANDLE;
    CHECK(vksortCreateSorter(&sorterInfo, &sorter));

    const VksortMemoryRequirementsInfo memoryInfo{nullptr, kCount, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_UINT32};
    VksortMemoryRequirements req{};
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    Buffer keys = createBuffer(gpu, device, req.keys.size, req.keys.usage);
    Buffer values = createBuffer(gpu, device, req.values.size, req.values.usage);
    Buffer scratch = createBuffer(gpu, device, req.scratch.size, req.scratch.usage);

    VksortBindingsCreateInfo bindingsInfo{};
    bindingsInfo.maxCount = kCount;
    bindingsInfo.keyType = VKSORT_KEY_TYPE_UINT32;
    bindingsInfo.valueType = VKSORT_VALUE_TYPE_UINT32;
    bindingsInfo.keys = {keys.buffer, 0, req.keys.size};
    bindingsInfo.values = {values.buffer, 0, req.values.size};
    bindingsInfo.scratch = {scratch.buffer, 0, req.scratch.size};
    VksortBindings bindings = VK_NULL_HANDLE;
    CHECK(vksortCreateBindings(sorter, &bindingsInfo, &bindings));

    // Keys with many duplicates (so stability shows), values = input position.
    std::vector<uint32_t> hostKeys(kCount);
    uint32_t state = 12345;
    for (uint32_t& k : hostKeys) {
        state = state * 1664525u + 1013904223u;
        k = (state >> 8) % 1000u;
    }
    std::memcpy(keys.mapped, hostKeys.data(), kCount * sizeof(uint32_t));
    std::vector<uint32_t> input(kCount);
    std::iota(input.begin(), input.end(), 0u);
    std::memcpy(values.mapped, input.data(), kCount * sizeof(uint32_t));

    // ---- Record, submit, wait. Host writes before vkQueueSubmit need no barrier. --------------
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = family;
    VkCommandPool pool = VK_NULL_HANDLE;
    CHECK(vkCreateCommandPool(device, &poolInfo, nullptr, &pool));
    VkCommandBufferAllocateInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmdInfo.commandPool = pool;
    cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmdInfo.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    CHECK(vkAllocateCommandBuffers(device, &cmdInfo, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CHECK(vkBeginCommandBuffer(cmd, &begin));

    VksortSortInfo sortInfo{};
    sortInfo.bindings = bindings;
    sortInfo.count = kCount;
    sortInfo.order = VKSORT_ORDER_ASCENDING;
    VksortSortResult result{};
    CHECK(vksortCmdSort(cmd, sorter, &sortInfo, &result));
    // After: the sort's last writes are compute-shader writes; the consumer here is the host.
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0,
                         nullptr, 0, nullptr);
    CHECK(vkEndCommandBuffer(cmd));

    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    CHECK(vkCreateFence(device, &fenceInfo, nullptr, &fence));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));

    // ---- Check: the result's location comes from vksort (32 bits = 8 passes: in place). -------
    const Buffer& outKeys = result.inScratch ? scratch : keys;
    const Buffer& outValues = result.inScratch ? scratch : values;
    const auto* gotKeys = reinterpret_cast<const uint32_t*>(static_cast<const char*>(outKeys.mapped) + result.keys.offset);
    const auto* gotValues =
        reinterpret_cast<const uint32_t*>(static_cast<const char*>(outValues.mapped) + result.values.offset);
    std::vector<uint32_t> expected = input; // positions, stably sorted by key
    std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) { return hostKeys[a] < hostKeys[b]; });
    int failures = 0;
    for (uint32_t i = 0; i < kCount; ++i) {
        if (gotKeys[i] != hostKeys[expected[i]] || gotValues[i] != expected[i]) {
            if (++failures <= 5)
                std::fprintf(stderr, "at %u: got key %u value %u, expected key %u value %u\n", i, gotKeys[i],
                             gotValues[i], hostKeys[expected[i]], expected[i]);
        }
    }

    vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, pool, nullptr);
    vksortDestroyBindings(sorter, bindings);
    vksortDestroySorter(sorter);
    destroyBuffer(device, keys);
    destroyBuffer(device, values);
    destroyBuffer(device, scratch);
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(instance, nullptr);

    if (failures != 0) {
        std::fprintf(stderr, "consumer-volk: %d of %u pairs wrong\n", failures, kCount);
        return 1;
    }
    std::printf("consumer-volk: sorted %u pairs (%u passes) through volk\n", kCount, result.passCount);
    return 0;
}
