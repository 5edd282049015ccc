// SPDX-License-Identifier: MIT
// point-depth: what a renderer writes to sort on the GPU with vksort, all in one command buffer:
//
//   points.comp (producer)   cull a point cloud to the view frustum; for each survivor append its
//                            view-space depth (f32 key) and index (value), count them on the GPU
//   vksortCmdSortIndirect    descending, so farthest first (back to front); the count never
//                            leaves the GPU
//   gather.comp (consumer)   the points in that order -> a draw-order buffer
//
// Then it reads the draw order back and checks it: depths never increase, and it holds each
// point the host finds inside the frustum exactly once. Vulkan is loaded with volk where the build
// found it, else through the system loader (../common/common.cmake). The Khronos validation
// layer with synchronization validation is on when installed (VKSORT_VALIDATION=0: off, =1:
// required); any message it reports makes the exit status non-zero. --help lists the options.
#include "example.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// The shaders, compiled at build time to comma-separated SPIR-V words (example_shaders in
// CMakeLists.txt, from ../common/common.cmake).
static const uint32_t kPointsSpv[] = {
#include "points.comp.spv.inc"
};
static const uint32_t kGatherSpv[] = {
#include "gather.comp.spv.inc"
};

struct Camera { float viewProj[16]; float depthRow[4]; uint32_t pointCount; }; // points.comp's push constants
struct DrawPoint { float position[4]; float depth; uint32_t pointIndex; uint32_t pad[2]; }; // gather.comp, std430

using namespace example;

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

// With `why`: that one line, pointing to --help (status 2); without: the usage (status 0).
static int usage(const char* why) {
    if (why) {
        std::fprintf(stderr, "point-depth: %s (point-depth --help lists the options)\n", why);
        return 2;
    }
    std::printf("usage: point-depth [--points N]\n"
                 "  --points N    how many points in the cloud (default 100000, at most 4000000)\n"
                 "Culls the points to a camera's view, sorts them back to front on the GPU and checks the\n"
                 "order on the host; exit status 0 when it is right.\n");
    return 0;
}

int main(int argc, char** argv) {
    uint32_t pointCount = 100000;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") return usage(nullptr);
        if (arg != "--points") return usage(("unknown option " + arg).c_str());
        if (i + 1 == argc) return usage("missing value after --points");
        char* end = nullptr;
        const unsigned long n = std::strtoul(argv[++i], &end, 10);
        // (At most 62500 workgroups of 64 in each of our dispatches: within every device's limit.)
        if (*end || n == 0 || n > 4000000) return usage("--points wants a count from 1 to 4000000");
        pointCount = uint32_t(n);
    }

    // The renderer's instance and device (vksort works with any; it needs Vulkan 1.1).
    Context context = createContext("point-depth", VK_QUEUE_COMPUTE_BIT);
    const VkDevice device = context.device;

    // ---- vksort: a sorter for that device that serves f32 keys with u32 values (only their
    // pipelines are compiled), and memory for up to pointCount pairs. ----------------------------
    VksortSorter sorter = createSorter(context, VKSORT_KEY_TYPE_BIT(VKSORT_KEY_TYPE_FLOAT32),
                                       VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_UINT32));

    VksortMemoryRequirementsInfo memoryInfo{nullptr, pointCount, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32};
    VksortMemoryRequirements req;
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    // Keys and values share one buffer: keys at 0, values at the first offset past them that
    // their alignment allows. Our shaders bind the same ranges, so honour the device's storage
    // buffer offset alignment too (both are powers of two).
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context.gpu, &properties);
    const VkDeviceSize keysOffset = 0;
    const VkDeviceSize align = std::max(req.values.alignment, properties.limits.minStorageBufferOffsetAlignment);
    const VkDeviceSize valuesOffset = (keysOffset + req.keys.size + align - 1) / align * align;
    Buffer sortBuffer = createBuffer(context, valuesOffset + req.values.size, req.keys.usage | req.values.usage, false);
    Buffer scratch = createBuffer(context, req.scratch.size, req.scratch.usage, false);
    Buffer points = createBuffer(context, pointCount * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    // The count: atomics in points.comp, read by the sort's copy (TRANSFER_SRC), zeroed by a fill.
    Buffer count = createBuffer(context, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    Buffer drawOrder = createBuffer(context, pointCount * sizeof(DrawPoint), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);

    VksortBindingsCreateInfo bindingsInfo{nullptr, pointCount, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32,
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
    VkDescriptorBufferInfo ranges[2][5] = {
        {{points.buffer, 0, VK_WHOLE_SIZE}, {sortBuffer.buffer, keysOffset, req.keys.size},
         {sortBuffer.buffer, valuesOffset, req.values.size}, {count.buffer, 0, 4},
         {drawOrder.buffer, 0, VK_WHOLE_SIZE}},
        {{points.buffer, 0, VK_WHOLE_SIZE}, {result.keys.buffer, result.keys.offset, result.keys.size},
         {result.values.buffer, result.values.offset, result.values.size}, {count.buffer, 0, 4},
         {drawOrder.buffer, 0, VK_WHOLE_SIZE}}};
    VkDescriptorSet sets[2]; // [0] producer: the ranges we gave vksort; [1] consumer: where the result is
    StorageLayout storage =
        createStorageLayout(context, 5, VK_SHADER_STAGE_COMPUTE_BIT, sizeof(Camera), 2, ranges[0], sets);
    const VkPipelineLayout layout = storage.layout;
    VkPipeline producer = createComputePipeline(context, kPointsSpv, sizeof kPointsSpv, layout);
    VkPipeline consumer = createComputePipeline(context, kGatherSpv, sizeof kGatherSpv, layout);

    // ---- The scene: random points, none within a hair of a frustum plane (so that the GPU's float
    // cull and the host's double one agree on every point). ------------------------------------------
    std::vector<bool> inside(pointCount);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> coordinate(-6.0f, 6.0f);
    auto* xyz = static_cast<float*>(points.mapped);
    for (uint32_t i = 0; i < pointCount; ++i) {
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
    push.pointCount = pointCount;

    // ---- One command buffer: cull -> sort -> gather. (Host writes before a submit need no barrier.)
    VkCommandBuffer cmd = begin(context);
    const uint32_t groups = (pointCount + 63) / 64;
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
    submitAndWait(context);

    // ---- Check: back to front, and exactly the points inside the frustum, each once. --------------
    uint32_t visible = *static_cast<const uint32_t*>(count.mapped), expected = 0, errors = 0;
    for (bool in : inside) expected += in;
    if (visible != expected) ++errors, std::fprintf(stderr, "%u points visible, expected %u\n", visible, expected);
    const auto* order = static_cast<const DrawPoint*>(drawOrder.mapped);
    std::vector<bool> seen(pointCount);
    for (uint32_t i = 0; i < visible && i < pointCount && errors < 10; ++i) {
        const DrawPoint& d = order[i];
        const float* p = xyz + 4 * (d.pointIndex < pointCount ? d.pointIndex : 0);
        double depth = kCamera.depthRow[0] * p[0] + kCamera.depthRow[1] * p[1] + kCamera.depthRow[2] * p[2] +
                       kCamera.depthRow[3];
        if (d.pointIndex >= pointCount || !inside[d.pointIndex] || seen[d.pointIndex])
            ++errors, std::fprintf(stderr, "draw %u: point %u is outside, repeated or invalid\n", i, d.pointIndex);
        else if (i > 0 && !(d.depth <= order[i - 1].depth))
            ++errors, std::fprintf(stderr, "draw %u: depth %g after %g\n", i, double(d.depth),
                                   double(order[i - 1].depth));
        else if (std::memcmp(d.position, p, 12) != 0 || std::fabs(d.depth - depth) > 1e-4 * (1 + std::fabs(depth)))
            ++errors, std::fprintf(stderr, "draw %u: position or depth of point %u is wrong\n", i, d.pointIndex);
        if (d.pointIndex < pointCount) seen[d.pointIndex] = true;
    }
    std::printf("point-depth: %u of %u points drawn back to front, depth %.3f to %.3f; validation %s, %d messages\n",
                visible, pointCount, visible ? double(order[0].depth) : 0.0,
                visible ? double(order[visible - 1].depth) : 0.0,
                context.validation ? "on (with synchronization)" : "off", validationMessages());

    vkDestroyPipeline(device, producer, nullptr);
    vkDestroyPipeline(device, consumer, nullptr);
    destroyStorageLayout(context, storage);
    vksortDestroyBindings(sorter, bindings); // bindings first, then the sorter
    vksortDestroySorter(sorter);
    for (Buffer* b : {&sortBuffer, &scratch, &points, &count, &drawOrder}) destroyBuffer(context, *b);
    destroyContext(context);
    return errors != 0 ? 1 : validationMessages() != 0 ? 3 : 0;
}
