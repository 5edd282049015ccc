// point-depth: what a renderer writes to sort on the GPU with vksort, all in one command buffer:
//
//   points.comp (producer)   cull a point cloud to the view frustum; for each survivor append its
//                            view-space depth (f32 key) and index (value), count them on the GPU
//   vksortCmdSortIndirect    descending, so farthest first (back to front); the count never
//                            leaves the GPU
//   gather.comp (consumer)   the points in that order -> a draw-order buffer
//
// Then it reads the draw order back and checks it: depths never increase, and it holds each
// point the host finds inside the frustum exactly once. Vulkan is loaded with volk. The Khronos
// validation layer with synchronization validation is on when installed (VKSORT_VALIDATION=0:
// off, =1: required); any message it reports makes the exit status non-zero.
#include <volk.h>
#include <vksort/vksort.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

static void check(VkResult result, const char* call, int line) {
    if (result == VK_SUCCESS) return;
    std::fprintf(stderr, "main.cpp:%d: %s failed: VkResult %d\n", line, call, int(result));
    std::exit(2);
}
#define CHECK(call) check((call), #call, __LINE__)

// The shaders, compiled at build time to comma-separated SPIR-V words (examples/CMakeLists.txt).
static const uint32_t kPointsSpv[] = {
#include "points.spv.inc"
};
static const uint32_t kGatherSpv[] = {
#include "gather.spv.inc"
};

struct Camera { float viewProj[16]; float depthRow[4]; uint32_t pointCount; }; // points.comp's push constants
struct DrawPoint { float position[4]; float depth; uint32_t pointIndex; uint32_t pad[2]; }; // gather.comp, std430

static VkPhysicalDevice gpu;
static VkDevice device;
static int validationMessages = 0;

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
    ++validationMessages;
    return VK_FALSE;
}

struct Buffer { VkBuffer buffer; VkDeviceMemory memory; void* mapped; };

// Stands in for the renderer's allocator: one allocation per buffer, device-local or host-visible.
static Buffer createBuffer(VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible) {
    Buffer b{};
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage};
    CHECK(vkCreateBuffer(device, &info, nullptr, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(gpu, &props);
    const VkMemoryPropertyFlags want = hostVisible
                                           ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                           : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, UINT32_MAX};
    for (uint32_t i = 0; i < props.memoryTypeCount && alloc.memoryTypeIndex == UINT32_MAX; ++i)
        if ((req.memoryTypeBits >> i & 1u) && (props.memoryTypes[i].propertyFlags & want) == want)
            alloc.memoryTypeIndex = i;
    if (alloc.memoryTypeIndex == UINT32_MAX) CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    CHECK(vkAllocateMemory(device, &alloc, nullptr, &b.memory));
    CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
    if (hostVisible) CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

static VkPipeline createPipeline(const uint32_t* code, size_t bytes, VkPipelineLayout layout) {
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, bytes, code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(device, &moduleInfo, nullptr, &module));
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
                  "main"};
    info.layout = layout;
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline));
    vkDestroyShaderModule(device, module, nullptr);
    return pipeline;
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages, VkAccessFlags srcAccess,
                    VkPipelineStageFlags dstStages, VkAccessFlags dstAccess) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, srcAccess, dstAccess};
    vkCmdPipelineBarrier(cmd, srcStages, dstStages, 0, 1, &b, 0, nullptr, 0, nullptr);
}

// The camera at (0, 2, 8) looks down -z: clip = viewProj * p (Vulkan clip space, depth 0..1),
// depth = dot(depthRow, p) = distance in front of the camera. Kept in double for the host's check.
struct Frustum { double viewProj[4][4]; double depthRow[4]; };
static const double kNear = 0.5, kFar = 9.0, kFocal = 1.0 / std::tan(0.5), kAspect = 16.0 / 9.0;
static const double kZ = kFar / (kNear - kFar); // z_clip = kZ * (z_view + kNear), with z_view = z - 8
static const Frustum kCamera = {{{kFocal / kAspect, 0, 0, 0},
                                 {0, kFocal, 0, -2 * kFocal},
                                 {0, 0, kZ, kZ * (kNear - 8)},
                                 {0, 0, -1, 8}},
                                {0, 0, -1, 8}};
// Signed distance to the nearest frustum plane in clip units: positive inside.
static double margin(const float p[4]) {
    double c[4];
    for (int r = 0; r < 4; ++r)
        c[r] = kCamera.viewProj[r][0] * p[0] + kCamera.viewProj[r][1] * p[1] + kCamera.viewProj[r][2] * p[2] +
               kCamera.viewProj[r][3];
    return std::fmin(std::fmin(c[3] - std::fabs(c[0]), c[3] - std::fabs(c[1])), std::fmin(c[2], c[3] - c[2]));
}

int main() {
    // ---- The renderer's instance and device (vksort works with any; it needs Vulkan 1.1). ----------
    CHECK(volkInitialize());
    const char* env = std::getenv("VKSORT_VALIDATION");
    uint32_t layerCount = 0;
    vkEnumerateInstanceLayerProperties(&layerCount, nullptr);
    std::vector<VkLayerProperties> layers(layerCount);
    vkEnumerateInstanceLayerProperties(&layerCount, layers.data());
    bool validation = false;
    for (const VkLayerProperties& l : layers) validation |= !std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation");
    if (env && !std::strcmp(env, "1") && !validation) return std::fprintf(stderr, "no validation layer\n"), 2;
    validation = validation && !(env && !std::strcmp(env, "0"));
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
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, &messengerInfo, 1, &sync};
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "point-depth", 0, nullptr, 0,
                          VK_API_VERSION_1_1};
    VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, validation ? &features : nullptr, 0, &app,
                                      validation ? 1u : 0u, &layer, validation ? 2u : 0u, extensions};
    VkInstance instance;
    CHECK(vkCreateInstance(&instanceInfo, nullptr, &instance));
    volkLoadInstance(instance);
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    if (validation) CHECK(vkCreateDebugUtilsMessengerEXT(instance, &messengerInfo, nullptr, &messenger));

    uint32_t gpuCount = 1, family = 0, familyCount = 0; // the first device, its first compute queue family
    VkResult enumerated = vkEnumeratePhysicalDevices(instance, &gpuCount, &gpu);
    if (enumerated != VK_INCOMPLETE) CHECK(enumerated);
    if (gpuCount == 0) return std::fprintf(stderr, "no Vulkan device\n"), 2;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, families.data());
    while (family < familyCount && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    if (family == familyCount) return std::fprintf(stderr, "no compute queue\n"), 2;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, family, 1, &priority};
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, nullptr, 0, 1, &queueInfo};
    CHECK(vkCreateDevice(gpu, &deviceInfo, nullptr, &device));
    volkLoadDevice(device);
    VkQueue queue;
    vkGetDeviceQueue(device, family, 0, &queue);

    // ---- vksort: a sorter for that device (volk's pointers), memory for up to kPoints pairs. -------
    VksortSorterCreateInfo sorterInfo{};
    sorterInfo.apiVersion = VK_API_VERSION_1_1; // what the instance was created with
    sorterInfo.instance = instance;
    sorterInfo.physicalDevice = gpu;
    sorterInfo.device = device;
    sorterInfo.pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    sorterInfo.pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    VksortSorter sorter;
    CHECK(vksortCreateSorter(&sorterInfo, &sorter));

    const uint32_t kPoints = 100000;
    VksortMemoryRequirementsInfo memoryInfo{nullptr, kPoints, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32};
    VksortMemoryRequirements req;
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    // Keys and values share one buffer: keys at 0, values at the first offset past them that
    // their alignment allows. Our shaders bind the same ranges, so honour the device's storage
    // buffer offset alignment too (both are powers of two).
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(gpu, &properties);
    const VkDeviceSize keysOffset = 0;
    const VkDeviceSize align = std::max(req.values.alignment, properties.limits.minStorageBufferOffsetAlignment);
    const VkDeviceSize valuesOffset = (keysOffset + req.keys.size + align - 1) / align * align;
    Buffer sortBuffer = createBuffer(valuesOffset + req.values.size, req.keys.usage | req.values.usage, false);
    Buffer scratch = createBuffer(req.scratch.size, req.scratch.usage, false);
    Buffer points = createBuffer(kPoints * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    // The count: atomics in points.comp, read by the sort's copy (TRANSFER_SRC), zeroed by a fill.
    Buffer count = createBuffer(4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    Buffer drawOrder = createBuffer(kPoints * sizeof(DrawPoint), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);

    VksortBindingsCreateInfo bindingsInfo{nullptr, kPoints, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32,
                                          {sortBuffer.buffer, keysOffset, req.keys.size},
                                          {sortBuffer.buffer, valuesOffset, req.values.size},
                                          {scratch.buffer, 0, req.scratch.size}};
    VksortBindings bindings; // once per set of buffers, like a framebuffer
    CHECK(vksortCreateBindings(sorter, &bindingsInfo, &bindings));
    VksortSortInfo sortInfo{};
    sortInfo.bindings = bindings;
    sortInfo.count = 0; // ignored by vksortCmdSortIndirect: the count comes from the count buffer
    sortInfo.order = VKSORT_ORDER_DESCENDING;
    VksortSortResult result; // where the sorted pairs will be (a pure query: 8 passes, in place)
    CHECK(vksortGetSortResult(sorter, &sortInfo, &result));

    // ---- Our two pipelines: one layout (5 storage buffers, push constants), one set each. ----------
    VkDescriptorSetLayoutBinding slots[5];
    for (uint32_t i = 0; i < 5; ++i)
        slots[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setLayoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 5,
                                                  slots};
    VkDescriptorSetLayout setLayout;
    CHECK(vkCreateDescriptorSetLayout(device, &setLayoutInfo, nullptr, &setLayout));
    VkPushConstantRange pushRange{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Camera)};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1,
                                          &pushRange};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout));
    VkPipeline producer = createPipeline(kPointsSpv, sizeof kPointsSpv, layout);
    VkPipeline consumer = createPipeline(kGatherSpv, sizeof kGatherSpv, layout);
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 10};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 2, 1, &poolSize};
    VkDescriptorPool descriptorPool;
    CHECK(vkCreateDescriptorPool(device, &poolInfo, nullptr, &descriptorPool));
    VkDescriptorSetLayout setLayouts[2] = {setLayout, setLayout};
    VkDescriptorSetAllocateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 2,
                                        setLayouts};
    VkDescriptorSet sets[2]; // [0] producer: the ranges we gave vksort; [1] consumer: where the result is
    CHECK(vkAllocateDescriptorSets(device, &setInfo, sets));
    VkDescriptorBufferInfo ranges[2][5] = {
        {{points.buffer, 0, VK_WHOLE_SIZE}, {sortBuffer.buffer, keysOffset, req.keys.size},
         {sortBuffer.buffer, valuesOffset, req.values.size}, {count.buffer, 0, 4},
         {drawOrder.buffer, 0, VK_WHOLE_SIZE}},
        {{points.buffer, 0, VK_WHOLE_SIZE}, {result.keys.buffer, result.keys.offset, result.keys.size},
         {result.values.buffer, result.values.offset, result.values.size}, {count.buffer, 0, 4},
         {drawOrder.buffer, 0, VK_WHOLE_SIZE}}};
    for (int s = 0; s < 2; ++s) {
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, sets[s], 0, 0, 5,
                                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, ranges[s]};
        vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    }

    // ---- The scene: random points, none within a hair of a frustum plane (so that the GPU's float
    // cull and the host's double one agree on every point). ------------------------------------------
    std::vector<bool> inside(kPoints);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> coordinate(-6.0f, 6.0f);
    auto* xyz = static_cast<float*>(points.mapped);
    for (uint32_t i = 0; i < kPoints; ++i) {
        float* p = xyz + 4 * i;
        do {
            p[0] = coordinate(rng), p[1] = coordinate(rng), p[2] = coordinate(rng), p[3] = 1.0f;
        } while (std::fabs(margin(p)) < 1e-3);
        inside[i] = margin(p) > 0;
    }
    Camera push{};
    for (int r = 0; r < 4; ++r) {
        for (int k = 0; k < 4; ++k) push.viewProj[4 * k + r] = float(kCamera.viewProj[r][k]); // column-major
        push.depthRow[r] = float(kCamera.depthRow[r]);
    }
    push.pointCount = kPoints;

    // ---- One command buffer: cull -> sort -> gather. (Host writes before a submit need no barrier.)
    VkCommandPoolCreateInfo cmdPoolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, family};
    VkCommandPool cmdPool;
    CHECK(vkCreateCommandPool(device, &cmdPoolInfo, nullptr, &cmdPool));
    VkCommandBufferAllocateInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cmdPool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(device, &cmdInfo, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    const uint32_t groups = (kPoints + 63) / 64;
    vkCmdFillBuffer(cmd, count.buffer, 0, 4, 0); // visibleCount = 0
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, producer);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 0, nullptr);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, groups, 1, 1);
    // Before the sort (the header's contract): keys and values visible to compute-shader reads and
    // writes; for the indirect sort, the count visible to the transfer that reads it as well.
    // (Nothing used these buffers before. Sorting every frame with the same buffers needs one
    // more barrier, for last frame's reads: docs/INTEGRATION.md, section 4.)
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    CHECK(vksortCmdSortIndirect(cmd, sorter, &sortInfo, count.buffer, 0, nullptr));
    // After the sort: its last writes are compute-shader writes; our consumer reads in a compute shader.
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT);
    // The sort left its own pipeline, descriptor set 0 and push constants bound: bind ours again.
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, consumer);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[1], 0, nullptr);
    vkCmdDispatch(cmd, groups, 1, 1);
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cmd};
    CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));

    // ---- Check: back to front, and exactly the points inside the frustum, each once. --------------
    uint32_t visible = *static_cast<const uint32_t*>(count.mapped), expected = 0, errors = 0;
    for (bool in : inside) expected += in;
    if (visible != expected) ++errors, std::fprintf(stderr, "%u points visible, expected %u\n", visible, expected);
    const auto* order = static_cast<const DrawPoint*>(drawOrder.mapped);
    std::vector<bool> seen(kPoints);
    for (uint32_t i = 0; i < visible && i < kPoints && errors < 10; ++i) {
        const DrawPoint& d = order[i];
        const float* p = xyz + 4 * (d.pointIndex < kPoints ? d.pointIndex : 0);
        double depth = kCamera.depthRow[0] * p[0] + kCamera.depthRow[1] * p[1] + kCamera.depthRow[2] * p[2] +
                       kCamera.depthRow[3];
        if (d.pointIndex >= kPoints || !inside[d.pointIndex] || seen[d.pointIndex])
            ++errors, std::fprintf(stderr, "draw %u: point %u is outside, repeated or invalid\n", i, d.pointIndex);
        else if (i > 0 && !(d.depth <= order[i - 1].depth))
            ++errors, std::fprintf(stderr, "draw %u: depth %g after %g\n", i, double(d.depth),
                                   double(order[i - 1].depth));
        else if (std::memcmp(d.position, p, 12) != 0 || std::fabs(d.depth - depth) > 1e-4 * (1 + std::fabs(depth)))
            ++errors, std::fprintf(stderr, "draw %u: position or depth of point %u is wrong\n", i, d.pointIndex);
        if (d.pointIndex < kPoints) seen[d.pointIndex] = true;
    }
    std::printf("point-depth: %u of %u points drawn back to front, depth %.3f to %.3f; validation %s, %d messages\n",
                visible, kPoints, visible ? double(order[0].depth) : 0.0,
                visible ? double(order[visible - 1].depth) : 0.0, validation ? "on (with synchronization)" : "off",
                validationMessages);

    vkDestroyCommandPool(device, cmdPool, nullptr);
    vkDestroyDescriptorPool(device, descriptorPool, nullptr);
    vkDestroyPipeline(device, producer, nullptr);
    vkDestroyPipeline(device, consumer, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    vksortDestroyBindings(sorter, bindings); // bindings first, then the sorter
    vksortDestroySorter(sorter);
    for (Buffer* b : {&sortBuffer, &scratch, &points, &count, &drawOrder}) {
        vkDestroyBuffer(device, b->buffer, nullptr);
        vkFreeMemory(device, b->memory, nullptr);
    }
    vkDestroyDevice(device, nullptr);
    if (messenger != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    return errors != 0 ? 1 : validationMessages != 0 ? 3 : 0;
}
