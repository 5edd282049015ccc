// SPDX-License-Identifier: MIT
/* A renderer written in C that links the system Vulkan loader (libvulkan, prototypes on) sorts
 * 5000 float keys, descending, as an argsort, and checks them on the host.
 *
 * What it shows: the header is C; with the loader linked, pass the loader's own
 * vkGetInstanceProcAddr and leave pfnGetDeviceProcAddr NULL: vksort fetches
 * vkGetDeviceProcAddr through it and loads its device functions directly from the driver.
 *
 * Exit status: 0 sorted correctly, 1 wrong result, 2 a Vulkan or vksort call failed. */
#include <vulkan/vulkan.h>

#include <vksort/vksort.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                     \
    do {                                                                                \
        VkResult result_ = (call);                                                      \
        if (result_ != VK_SUCCESS) {                                                    \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)result_); \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)

enum { kCount = 5000 };

typedef struct Buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void* mapped;
} Buffer;

/* One buffer in its own host-visible, coherent allocation (a renderer would use its allocator). */
static Buffer createBuffer(VkPhysicalDevice gpu, VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage) {
    Buffer b = {VK_NULL_HANDLE, VK_NULL_HANDLE, NULL};
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    CHECK(vkCreateBuffer(device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo alloc = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = UINT32_MAX;
    for (uint32_t i = 0; i < props.memoryTypeCount && alloc.memoryTypeIndex == UINT32_MAX; ++i) {
        if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
            alloc.memoryTypeIndex = i;
    }
    if (alloc.memoryTypeIndex == UINT32_MAX) CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    CHECK(vkAllocateMemory(device, &alloc, NULL, &b.memory));
    CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
    CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

static void destroyBuffer(VkDevice device, Buffer* b) {
    vkDestroyBuffer(device, b->buffer, NULL);
    vkFreeMemory(device, b->memory, NULL);
}

/* For the host's reference: descending by key, then ascending by input position (stability). */
static const float* gKeys;
static int compareDescending(const void* a, const void* b) {
    uint32_t i = *(const uint32_t*)a, j = *(const uint32_t*)b;
    if (gKeys[i] != gKeys[j]) return gKeys[i] > gKeys[j] ? -1 : 1;
    return i < j ? -1 : (i > j ? 1 : 0);
}

int main(void) {
    /* ---- The renderer's own start-up: instance and device through the loader. --------------- */
    const uint32_t apiVersion = VK_API_VERSION_1_1;
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort-consumer-loader";
    app.apiVersion = apiVersion;
    VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instanceInfo.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    CHECK(vkCreateInstance(&instanceInfo, NULL, &instance));

    /* The first device with a compute queue. */
    VkPhysicalDevice gpus[16];
    uint32_t gpuCount = 16;
    VkResult enumerated = vkEnumeratePhysicalDevices(instance, &gpuCount, gpus);
    if (enumerated != VK_INCOMPLETE) CHECK(enumerated);
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    uint32_t family = 0;
    for (uint32_t d = 0; d < gpuCount && gpu == VK_NULL_HANDLE; ++d) {
        VkQueueFamilyProperties families[16];
        uint32_t n = 16;
        vkGetPhysicalDeviceQueueFamilyProperties(gpus[d], &n, families);
        for (uint32_t f = 0; f < n && gpu == VK_NULL_HANDLE; ++f) {
            if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                gpu = gpus[d];
                family = f;
            }
        }
    }
    if (gpu == VK_NULL_HANDLE) {
        fprintf(stderr, "no Vulkan device with a compute queue\n");
        return 2;
    }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    VkDevice device = VK_NULL_HANDLE;
    CHECK(vkCreateDevice(gpu, &deviceInfo, NULL, &device));
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, family, 0, &queue);

    /* ---- vksort: the loader's vkGetInstanceProcAddr, and nothing else. ---------------------- */
    VksortSorterCreateInfo sorterInfo;
    memset(&sorterInfo, 0, sizeof sorterInfo);
    sorterInfo.apiVersion = apiVersion;
    sorterInfo.instance = instance;
    sorterInfo.physicalDevice = gpu;
    sorterInfo.device = device;
    sorterInfo.pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    sorterInfo.pfnGetDeviceProcAddr = NULL; /* vksort fetches it through vkGetInstanceProcAddr */
    VksortSorter sorter = VK_NULL_HANDLE;
    CHECK(vksortCreateSorter(&sorterInfo, &sorter));

    /* An argsort: the values buffer receives each sorted key's input position. */
    const VksortMemoryRequirementsInfo memoryInfo = {NULL, kCount, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX};
    VksortMemoryRequirements req;
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    Buffer keys = createBuffer(gpu, device, req.keys.size, req.keys.usage);
    Buffer values = createBuffer(gpu, device, req.values.size, req.values.usage);
    Buffer scratch = createBuffer(gpu, device, req.scratch.size, req.scratch.usage);

    VksortBindingsCreateInfo bindingsInfo;
    memset(&bindingsInfo, 0, sizeof bindingsInfo);
    bindingsInfo.maxCount = kCount;
    bindingsInfo.keyType = VKSORT_KEY_TYPE_FLOAT32;
    bindingsInfo.valueType = VKSORT_VALUE_TYPE_INDEX;
    bindingsInfo.keys.buffer = keys.buffer;
    bindingsInfo.keys.size = req.keys.size;
    bindingsInfo.values.buffer = values.buffer;
    bindingsInfo.values.size = req.values.size;
    bindingsInfo.scratch.buffer = scratch.buffer;
    bindingsInfo.scratch.size = req.scratch.size;
    VksortBindings bindings = VK_NULL_HANDLE;
    CHECK(vksortCreateBindings(sorter, &bindingsInfo, &bindings));

    /* Keys: signed floats with repeats, so sign handling and stability both show. */
    static float hostKeys[kCount];
    uint32_t state = 777;
    for (uint32_t i = 0; i < kCount; ++i) {
        state = state * 1664525u + 1013904223u;
        hostKeys[i] = (float)((int)(state >> 20) - 2048) * 0.25f;
    }
    memcpy(keys.mapped, hostKeys, sizeof hostKeys);

    /* ---- Record, submit, wait. Host writes before vkQueueSubmit need no barrier. ------------ */
    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = family;
    VkCommandPool pool = VK_NULL_HANDLE;
    CHECK(vkCreateCommandPool(device, &poolInfo, NULL, &pool));
    VkCommandBufferAllocateInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmdInfo.commandPool = pool;
    cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmdInfo.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    CHECK(vkAllocateCommandBuffers(device, &cmdInfo, &cmd));
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CHECK(vkBeginCommandBuffer(cmd, &begin));

    VksortSortInfo sortInfo;
    memset(&sortInfo, 0, sizeof sortInfo);
    sortInfo.bindings = bindings;
    sortInfo.count = kCount;
    sortInfo.order = VKSORT_ORDER_DESCENDING;
    VksortSortResult result;
    CHECK(vksortCmdSort(cmd, sorter, &sortInfo, &result));
    /* After: the sort's last writes are compute-shader writes; the consumer here is the host. */
    VkMemoryBarrier after = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &after, 0, NULL,
                         0, NULL);
    CHECK(vkEndCommandBuffer(cmd));

    VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    CHECK(vkCreateFence(device, &fenceInfo, NULL, &fence));
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));

    /* ---- Check against qsort by (key descending, position ascending) = a stable sort. -------- */
    const Buffer* outKeys = result.inScratch ? &scratch : &keys;
    const Buffer* outValues = result.inScratch ? &scratch : &values;
    const float* gotKeys = (const float*)((const char*)outKeys->mapped + result.keys.offset);
    const uint32_t* gotValues = (const uint32_t*)((const char*)outValues->mapped + result.values.offset);
    static uint32_t expected[kCount];
    for (uint32_t i = 0; i < kCount; ++i) expected[i] = i;
    gKeys = hostKeys;
    qsort(expected, kCount, sizeof expected[0], compareDescending);
    int failures = 0;
    for (uint32_t i = 0; i < kCount; ++i) {
        if (gotKeys[i] != hostKeys[expected[i]] || gotValues[i] != expected[i]) {
            if (++failures <= 5)
                fprintf(stderr, "at %u: got key %g index %u, expected key %g index %u\n", i, (double)gotKeys[i],
                        gotValues[i], (double)hostKeys[expected[i]], expected[i]);
        }
    }

    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, pool, NULL);
    vksortDestroyBindings(sorter, bindings);
    vksortDestroySorter(sorter);
    destroyBuffer(device, &keys);
    destroyBuffer(device, &values);
    destroyBuffer(device, &scratch);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);

    if (failures != 0) {
        fprintf(stderr, "consumer-loader: %d of %d keys wrong\n", failures, kCount);
        return 1;
    }
    printf("consumer-loader: argsorted %d float keys (%u passes) through the system loader\n", kCount,
           result.passCount);
    return 0;
}
