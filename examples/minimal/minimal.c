// SPDX-License-Identifier: MIT
// minimal: vksort from start to finish in one short C program. It creates an instance and a
// device through the system's Vulkan loader, a sorter for 32-bit keys sorted as an argsort (the
// values become each key's input index), buffers with plain vkAllocateMemory, then records the
// sort into a command buffer, submits it, waits, and checks the result on the host.
#include <vksort/vksort.h>
#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        VkResult result_ = (call);                                                               \
        if (result_ != VK_SUCCESS) {                                                             \
            fprintf(stderr, "minimal: %s failed: VkResult %d\n", #call, (int)result_);          \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

enum { COUNT = 100000 }; // more keys than one workgroup sorts: every pass runs as its own dispatches

static VkPhysicalDevice gpu;
static VkDevice device;

// A buffer with memory of its own: host-visible and coherent when the host reads or writes it,
// otherwise whatever memory type the buffer allows (device-local first).
static VkBuffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, int hostVisible, VkDeviceMemory* memory) {
    VkBufferCreateInfo bufferInfo = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.size = size;
    bufferInfo.usage = usage;
    VkBuffer buffer;
    CHECK(vkCreateBuffer(device, &bufferInfo, NULL, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    const VkMemoryPropertyFlags want =
        hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                    : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryAllocateInfo allocInfo = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocInfo.allocationSize = req.size;
    allocInfo.memoryTypeIndex = UINT32_MAX;
    for (uint32_t any = 0; any < 2 && allocInfo.memoryTypeIndex == UINT32_MAX; ++any) // then any type, if allowed
        for (uint32_t i = 0; i < props.memoryTypeCount && allocInfo.memoryTypeIndex == UINT32_MAX; ++i)
            if ((req.memoryTypeBits >> i & 1u) &&
                (any ? !hostVisible : (props.memoryTypes[i].propertyFlags & want) == want))
                allocInfo.memoryTypeIndex = i;
    if (allocInfo.memoryTypeIndex == UINT32_MAX) CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    CHECK(vkAllocateMemory(device, &allocInfo, NULL, memory));
    CHECK(vkBindBufferMemory(device, buffer, *memory, 0));
    return buffer;
}

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") != 0 && strcmp(argv[i], "-h") != 0) {
            fprintf(stderr, "minimal: unknown option %s (minimal --help says what it does)\n", argv[i]);
            return 2;
        }
        printf("usage: minimal\n"
               "Sorts %d keys with vksort on the first Vulkan device and checks them; "
               "prints OK and exits with 0 when they are right.\n", COUNT);
        return 0;
    }

    // ---- Vulkan: an instance, the first device, a queue family with compute. ---------------------
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "minimal";
    app.apiVersion = VK_API_VERSION_1_1; // all vksort needs
    VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instanceInfo.pApplicationInfo = &app;
    VkInstance instance;
    CHECK(vkCreateInstance(&instanceInfo, NULL, &instance));
    uint32_t gpuCount = 1, familyCount = 0, family = 0;
    VkResult enumerated = vkEnumeratePhysicalDevices(instance, &gpuCount, &gpu);
    if (enumerated != VK_INCOMPLETE) CHECK(enumerated);
    if (gpuCount == 0) return fprintf(stderr, "minimal: no Vulkan device\n"), 1;
    VkQueueFamilyProperties families[16];
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, NULL);
    familyCount = familyCount < 16 ? familyCount : 16;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, families);
    while (family < familyCount && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    if (family == familyCount) return fprintf(stderr, "minimal: no compute queue\n"), 1;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    // VK_KHR_push_descriptor where the device offers it: the sort then takes its buffers as it
    // records. Without it (any Vulkan 1.1 device) a bindings object carries them.
    VkExtensionProperties extensions[256];
    uint32_t extensionCount = 256, pushDescriptors = 0;
    VkResult listed = vkEnumerateDeviceExtensionProperties(gpu, NULL, &extensionCount, extensions);
    if (listed != VK_INCOMPLETE) CHECK(listed);
    for (uint32_t i = 0; i < extensionCount; ++i) {
        if (strcmp(extensions[i].extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0) pushDescriptors = 1;
    }
    const char* pushExtension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.enabledExtensionCount = pushDescriptors;
    deviceInfo.ppEnabledExtensionNames = &pushExtension;
    CHECK(vkCreateDevice(gpu, &deviceInfo, NULL, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    // ---- vksort: a sorter that serves u32 keys with index values (only their pipelines are
    // compiled), and the buffers its requirements ask for. ------------------------------------------
    VksortSorterCreateInfo sorterInfo = {0};
    sorterInfo.flags = pushDescriptors ? VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT : 0;
    sorterInfo.apiVersion = app.apiVersion; // what the instance was created with
    sorterInfo.instance = instance;
    sorterInfo.physicalDevice = gpu;
    sorterInfo.device = device;
    sorterInfo.pfnGetInstanceProcAddr = vkGetInstanceProcAddr; // the loader's
    sorterInfo.keyTypes = VKSORT_KEY_TYPE_BIT(VKSORT_KEY_TYPE_UINT32);
    sorterInfo.valueTypes = VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_INDEX);
    VksortSorter sorter;
    CHECK(vksortCreateSorter(&sorterInfo, &sorter));
    VksortMemoryRequirementsInfo memoryInfo = {NULL, COUNT, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_INDEX};
    VksortMemoryRequirements req;
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    // One buffer each, bound at offset 0 (a multiple of every alignment). Keys and values are
    // host-visible so that this program can write and read them; a renderer keeps them on the GPU.
    VkDeviceMemory keysMemory, valuesMemory, scratchMemory;
    VkBuffer keys = createBuffer(req.keys.size, req.keys.usage, 1, &keysMemory);
    VkBuffer values = createBuffer(req.values.size, req.values.usage, 1, &valuesMemory);
    VkBuffer scratch = createBuffer(req.scratch.size, req.scratch.usage, 0, &scratchMemory);
    VksortBindingsCreateInfo buffers = {NULL, COUNT, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_INDEX,
                                        {keys, 0, req.keys.size}, {values, 0, req.values.size},
                                        {scratch, 0, req.scratch.size}};
    VksortBindings bindings = VK_NULL_HANDLE; // (only without push descriptors)
    if (!pushDescriptors) CHECK(vksortCreateBindings(sorter, &buffers, &bindings));

    // ---- The keys: pseudo-random, with many repeats (so that stability shows). --------------------
    uint32_t *keyData, *indexData;
    CHECK(vkMapMemory(device, keysMemory, 0, VK_WHOLE_SIZE, 0, (void**)&keyData));
    CHECK(vkMapMemory(device, valuesMemory, 0, VK_WHOLE_SIZE, 0, (void**)&indexData));
    uint32_t* input = malloc(COUNT * sizeof(uint32_t)); // the keys as they were, for the check
    if (!input) return fprintf(stderr, "minimal: out of memory\n"), 1;
    uint32_t state = 12345;
    for (uint32_t i = 0; i < COUNT; ++i) {
        state = state * 1664525u + 1013904223u;
        input[i] = keyData[i] = (state >> 8) % 5000u;
    }

    // ---- Record, submit, wait. (Host writes before a submission need no barrier.) -----------------
    VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = family;
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(device, &poolInfo, NULL, &pool));
    VkCommandBufferAllocateInfo cmdInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmdInfo.commandPool = pool;
    cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmdInfo.commandBufferCount = 1;
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(device, &cmdInfo, &cmd));
    VkCommandBufferBeginInfo beginInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CHECK(vkBeginCommandBuffer(cmd, &beginInfo));
    VksortSortInfo sortInfo = {NULL, bindings, COUNT, VKSORT_ORDER_ASCENDING}; // all 32 bits
    if (pushDescriptors) sortInfo.pBuffers = &buffers; // the buffers, given as the sort records
    VksortSortResult result;
    CHECK(vksortCmdSort(cmd, sorter, &sortInfo, &result));
    // All 32 bits are 8 passes, an even count: the result is back in keys and values.
    if (result.inScratch) return fprintf(stderr, "minimal: the result is in the scratch buffer\n"), 1;
    // The sort's last writes are compute-shader writes; the host reads them after the fence.
    VkMemoryBarrier toHost = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, NULL,
                         0, NULL);
    CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(device, &fenceInfo, NULL, &fence));
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));

    // ---- Check: keys ascending, each value the input index of its key, equal keys in input order.
    uint32_t errors = 0;
    for (uint32_t i = 0; i < COUNT && errors < 10; ++i) {
        const uint32_t index = indexData[i];
        if (index >= COUNT || input[index] != keyData[i])
            ++errors, fprintf(stderr, "minimal: position %u holds key %u with index %u\n", i, keyData[i], index);
        else if (i > 0 && (keyData[i] < keyData[i - 1] ||
                           (keyData[i] == keyData[i - 1] && index <= indexData[i - 1])))
            ++errors, fprintf(stderr, "minimal: position %u is out of order\n", i);
    }
    // (Indices strictly increase within each run of equal keys, and each names a key equal to its
    // own: together, every input index appears exactly once.)

    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, pool, NULL);
    vksortDestroyBindings(sorter, bindings); // bindings first (NULL is ignored), then the sorter
    vksortDestroySorter(sorter);
    vkDestroyBuffer(device, keys, NULL);
    vkDestroyBuffer(device, values, NULL);
    vkDestroyBuffer(device, scratch, NULL);
    vkFreeMemory(device, keysMemory, NULL);
    vkFreeMemory(device, valuesMemory, NULL);
    vkFreeMemory(device, scratchMemory, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    free(input);
    if (errors) return 1;
    printf("OK: %d u32 keys sorted on the GPU, argsort checked\n", COUNT);
    return 0;
}
