// SPDX-License-Identifier: MIT
/* A renderer that builds without CMake: this file, compiled and linked with nothing but
 * `pkg-config --cflags --libs vksort` (tests/pkgconfig/Makefile), as C99 with the C compiler
 * driver, so the .pc must bring the C++ runtime the static library needs. It loads Vulkan itself
 * (dlopen, as volk does), since vksort links no loader and its .pc adds none, then sorts 10000
 * uint32 keys ascending on the first device and checks them on the host.
 *
 * Exit status: 0 sorted correctly, 1 wrong result, 2 a Vulkan, vksort or loading call failed. */
#define VK_NO_PROTOTYPES
#include <vksort/vksort.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(VkResult result, const char* call, int line) {
    if (result == VK_SUCCESS) return;
    fprintf(stderr, "consumer.c:%d: %s failed: %d\n", line, call, (int)result);
    exit(2);
}
#define CHECK(call) check((call), #call, __LINE__)

enum { kCount = 10000 };

/* The entry points this program calls, by the level they are loaded at. */
#define INSTANCE_FUNCTIONS(X)                                                                     \
    X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceQueueFamilyProperties)                      \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr) X(vkDestroyInstance)
#define DEVICE_FUNCTIONS(X)                                                                       \
    X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory)       \
    X(vkBindBufferMemory) X(vkMapMemory) X(vkCreateCommandPool) X(vkAllocateCommandBuffers)          \
    X(vkBeginCommandBuffer) X(vkCmdPipelineBarrier) X(vkEndCommandBuffer) X(vkQueueSubmit)           \
    X(vkQueueWaitIdle) X(vkDestroyCommandPool) X(vkDestroyBuffer) X(vkFreeMemory) X(vkDestroyDevice)
#define DECLARE(name) static PFN_##name name;
INSTANCE_FUNCTIONS(DECLARE)
DEVICE_FUNCTIONS(DECLARE)

static PFN_vkVoidFunction must(PFN_vkVoidFunction f, const char* what) {
    if (!f) {
        fprintf(stderr, "cannot load %s\n", what);
        exit(2);
    }
    return f;
}

static int ascending(const void* a, const void* b) {
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

int main(void) {
    /* Never closed, as volk does not close it either: the driver may still run code at exit, and
     * LeakSanitizer can only name (and lsan.supp suppress) frames of libraries still loaded. */
    void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    void* symbol = loader ? dlsym(loader, "vkGetInstanceProcAddr") : NULL;
    if (!symbol) return fprintf(stderr, "cannot load vkGetInstanceProcAddr from libvulkan.so.1\n"), 2;
    /* dlsym returns a data pointer; POSIX guarantees that its bytes are the function's. */
    PFN_vkGetInstanceProcAddr getInstanceProcAddr;
    memcpy(&getInstanceProcAddr, &symbol, sizeof symbol);
    PFN_vkCreateInstance createInstance =
        (PFN_vkCreateInstance)must(getInstanceProcAddr(NULL, "vkCreateInstance"), "vkCreateInstance");

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instanceInfo.pApplicationInfo = &app;
    VkInstance instance;
    CHECK(createInstance(&instanceInfo, NULL, &instance));
#define LOAD_INSTANCE(name) name = (PFN_##name)must(getInstanceProcAddr(instance, #name), #name);
    INSTANCE_FUNCTIONS(LOAD_INSTANCE)

    /* The first device; its first queue family with compute. */
    VkPhysicalDevice gpu;
    uint32_t gpuCount = 1, familyCount = 16, family = 0;
    VkResult enumerated = vkEnumeratePhysicalDevices(instance, &gpuCount, &gpu);
    if (enumerated != VK_INCOMPLETE) CHECK(enumerated);
    if (gpuCount == 0) return fprintf(stderr, "no Vulkan device\n"), 2;
    VkQueueFamilyProperties families[16];
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, families);
    while (family < familyCount && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    if (family == familyCount) return fprintf(stderr, "no compute queue\n"), 2;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, family, 1, &priority};
    VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &queueInfo};
    VkDevice device;
    CHECK(vkCreateDevice(gpu, &deviceInfo, NULL, &device));
#define LOAD_DEVICE(name) name = (PFN_##name)must(vkGetDeviceProcAddr(device, #name), #name);
    DEVICE_FUNCTIONS(LOAD_DEVICE)
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    VksortSorterCreateInfo sorterInfo;
    memset(&sorterInfo, 0, sizeof sorterInfo);
    sorterInfo.apiVersion = app.apiVersion;
    sorterInfo.instance = instance;
    sorterInfo.physicalDevice = gpu;
    sorterInfo.device = device;
    sorterInfo.pfnGetInstanceProcAddr = getInstanceProcAddr;
    VksortSorter sorter;
    CHECK(vksortCreateSorter(&sorterInfo, &sorter));

    /* Keys and scratch in one host-visible buffer: keys at 0, scratch at its alignment past them. */
    const VksortMemoryRequirementsInfo memoryInfo = {NULL, kCount, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE};
    VksortMemoryRequirements req;
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    const VkDeviceSize scratchOffset = (req.keys.size + req.scratch.alignment - 1) / req.scratch.alignment *
                                       req.scratch.alignment;
    VkBufferCreateInfo bufferInfo = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = scratchOffset + req.scratch.size;
    bufferInfo.usage = req.keys.usage | req.scratch.usage;
    VkBuffer buffer;
    CHECK(vkCreateBuffer(device, &bufferInfo, NULL, &buffer));
    VkMemoryRequirements bufferReq;
    vkGetBufferMemoryRequirements(device, buffer, &bufferReq);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkMemoryAllocateInfo alloc = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, bufferReq.size, 0};
    while (alloc.memoryTypeIndex < props.memoryTypeCount &&
           !((bufferReq.memoryTypeBits >> alloc.memoryTypeIndex & 1u) &&
             (props.memoryTypes[alloc.memoryTypeIndex].propertyFlags & wanted) == wanted))
        ++alloc.memoryTypeIndex;
    if (alloc.memoryTypeIndex == props.memoryTypeCount) CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(device, &alloc, NULL, &memory));
    CHECK(vkBindBufferMemory(device, buffer, memory, 0));
    uint32_t* keys;
    CHECK(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, (void**)&keys));
    static uint32_t expected[kCount];
    uint32_t state = 12345;
    for (int i = 0; i < kCount; ++i) {
        state = state * 1664525u + 1013904223u;
        keys[i] = expected[i] = state;
    }
    qsort(expected, kCount, sizeof expected[0], ascending);

    VksortBindingsCreateInfo bindingsInfo;
    memset(&bindingsInfo, 0, sizeof bindingsInfo);
    bindingsInfo.maxCount = kCount;
    bindingsInfo.keyType = VKSORT_KEY_TYPE_UINT32;
    bindingsInfo.valueType = VKSORT_VALUE_TYPE_NONE;
    bindingsInfo.keys.buffer = buffer;
    bindingsInfo.keys.size = req.keys.size;
    bindingsInfo.scratch.buffer = buffer;
    bindingsInfo.scratch.offset = scratchOffset;
    bindingsInfo.scratch.size = req.scratch.size;
    VksortBindings bindings;
    CHECK(vksortCreateBindings(sorter, &bindingsInfo, &bindings));

    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(device, &poolInfo, NULL, &pool));
    VkCommandBufferAllocateInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                           VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(device, &cmdInfo, &cmd));
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    /* The keys come from the host before the submit: no barrier before the sort. After it, its
     * compute-shader writes visible to the host's read. */
    /* All 32 bits, no timestamps. */
    VksortSortInfo sortInfo = {NULL, bindings, kCount, VKSORT_ORDER_ASCENDING, 0, VKSORT_KEY_WIDTH, VK_NULL_HANDLE, 0};
    VksortSortResult result;
    CHECK(vksortCmdSort(cmd, sorter, &sortInfo, &result));
    VkMemoryBarrier toHost = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, NULL,
                         0, NULL);
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));

    /* 32 bits are 8 passes: the result is back in the keys range. */
    int wrong = result.inScratch || memcmp(keys, expected, sizeof expected) != 0;
    printf("vksort-pkgconfig: %d keys sorted %s (vksort %d.%d.%d, %u passes)\n", kCount, wrong ? "WRONG" : "correctly",
           VKSORT_VERSION_MAJOR, VKSORT_VERSION_MINOR, VKSORT_VERSION_PATCH, result.passCount);

    vkDestroyCommandPool(device, pool, NULL);
    vksortDestroyBindings(sorter, bindings);
    vksortDestroySorter(sorter);
    vkDestroyBuffer(device, buffer, NULL);
    vkFreeMemory(device, memory, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    return wrong ? 1 : 0;
}
