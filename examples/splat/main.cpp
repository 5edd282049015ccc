// SPDX-License-Identifier: MIT
// splat: a Gaussian-splat renderer in miniature, the picture of a GPU sort at work. Translucent
// splats must be blended back to front; one command buffer per frame does it all:
//
//   depth.comp (producer)   each splat's view-space depth -> an f32 key
//   vksortCmdSort           descending (farthest first), as an argsort: the values become the
//                           splat indices in draw order
//   splat.vert/.frag        one instanced quad per splat in that order, gaussian falloff,
//                           alpha-blended into an offscreen image (render pass, no window)
//
// then copies the image to the host and writes it as a PNG (stb_image_write). --order host draws the order that
// std::stable_sort computes on the CPU from the same depths, --order unsorted the input order.
// --check draws all three and compares them: the GPU's order must give the host's picture (and
// the very same permutation), and the unsorted one a clearly different picture. Vulkan is loaded
// with volk where the build found it, else through the system loader (../common/common.cmake);
// the validation layer with synchronization validation is on when installed (VKSORT_VALIDATION=0:
// off, =1: required), and any message makes the exit status non-zero.
#include "example.hpp"

// stb_image_write (Debian: libstb-dev), its implementation compiled here.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace example;

// The shaders, compiled at build time to comma-separated SPIR-V words (example_shaders in
// CMakeLists.txt, from ../common/common.cmake).
static const uint32_t kDepthSpv[] = {
#include "depth.comp.spv.inc"
};
static const uint32_t kVertexSpv[] = {
#include "splat.vert.spv.inc"
};
static const uint32_t kFragmentSpv[] = {
#include "splat.frag.spv.inc"
};

struct Camera { float viewProj[16]; float depthRow[4]; float right[4]; float up[4]; uint32_t splatCount; };
struct Splat { float center[3]; float radius; float color[4]; }; // std430, as in the shaders

enum class Order { Sorted, Host, Unsorted };
static const char* const kOrderNames[] = {"sorted", "host", "unsorted"};

// ---- The scene: a spiral galaxy seen from above its plane, so that most lines of sight cross
// many splats of different colours. Positions, colours and sizes come from a hash of the index
// (not <random>'s distributions, whose output differs between standard libraries), so every
// platform draws the same picture. ---------------------------------------------------------------
static float hash01(uint32_t index, uint32_t stream) {
    uint32_t h = index * 0x9E3779B9u ^ (stream + 1) * 0x85EBCA6Bu;
    h ^= h >> 16, h *= 0x7FEB352Du, h ^= h >> 15, h *= 0x846CA68Bu, h ^= h >> 16;
    return float(h >> 8) * (1.0f / 16777216.0f);
}

static std::vector<Splat> makeGalaxy(uint32_t count) {
    std::vector<Splat> splats(count);
    const float core[3] = {1.0f, 0.78f, 0.45f}, arm[3] = {0.35f, 0.55f, 1.0f}, nebula[3] = {1.0f, 0.3f, 0.55f},
                dustColor[3] = {0.12f, 0.07f, 0.05f};
    for (uint32_t i = 0; i < count; ++i) {
        Splat& s = splats[i];
        auto u = [i](uint32_t stream) { return hash01(i, stream); };
        // A gaussian-ish spread from the sum of three uniforms (mean 0, about unit variance).
        auto spread = [&u](uint32_t stream) { return (u(stream) + u(stream + 1) + u(stream + 2) - 1.5f) * 2.0f; };
        const bool inCore = u(0) < 0.2f;
        const float r = inCore ? 0.3f * std::fabs(spread(1)) : 0.15f + 1.5f * std::pow(u(1), 0.8f);
        const float angle = inCore ? 6.2831853f * u(2) : (u(2) < 0.5f ? 0.0f : 3.1415927f) + 3.0f * r + 0.22f * spread(4);
        s.center[0] = r * std::cos(angle);
        s.center[1] = (inCore ? 0.12f : 0.04f) * spread(7);
        s.center[2] = r * std::sin(angle);
        // Dust: dark, nearly opaque and large, so that what lies in front of it matters most.
        const bool dust = !inCore && u(15) < 0.12f;
        const float t = std::min(1.0f, r / 1.2f), pink = u(10) < 0.06f ? 1.0f : 0.0f;
        for (int c = 0; c < 3; ++c) {
            const float base = core[c] + (arm[c] - core[c]) * t;
            s.color[c] = dust ? dustColor[c] : (base + (nebula[c] - base) * pink) * (0.75f + 0.25f * u(11));
        }
        s.color[3] = dust ? 0.5f + 0.3f * u(12) : 0.15f + 0.45f * u(12);
        s.radius = (inCore ? 0.012f : dust ? 0.02f : 0.007f) + 0.025f * u(13) * u(13);
    }
    return splats;
}

// Looks at the origin from above and in front; Vulkan clip space (y down, depth 0..1).
static Camera makeCamera(uint32_t width, uint32_t height, uint32_t splatCount) {
    const float eye[3] = {0.0f, 2.6f, 3.0f}, near = 0.5f, far = 7.0f;
    const float focal = 1.0f / std::tan(0.5f * 0.8f), aspect = float(width) / float(height);
    float forward[3], right[3], up[3]; // forward = -eye/|eye|; right = forward x (0,1,0); up = right x forward
    const float length = std::sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
    for (int k = 0; k < 3; ++k) forward[k] = -eye[k] / length;
    const float rl = std::sqrt(forward[2] * forward[2] + forward[0] * forward[0]);
    right[0] = -forward[2] / rl, right[1] = 0.0f, right[2] = forward[0] / rl;
    up[0] = right[1] * forward[2] - right[2] * forward[1];
    up[1] = right[2] * forward[0] - right[0] * forward[2];
    up[2] = right[0] * forward[1] - right[1] * forward[0];
    auto row = [&eye](const float axis[3], float scale, float out[4]) {
        for (int k = 0; k < 3; ++k) out[k] = scale * axis[k];
        out[3] = -scale * (axis[0] * eye[0] + axis[1] * eye[1] + axis[2] * eye[2]);
    };
    float rows[4][4]; // clip = rows * (p, 1)
    row(right, focal / aspect, rows[0]);
    row(up, -focal, rows[1]); // Vulkan's y points down
    row(forward, far / (far - near), rows[2]);
    rows[2][3] -= far * near / (far - near); // z_clip = far / (far - near) * (depth - near)
    row(forward, 1.0f, rows[3]);             // w = depth
    Camera camera{};
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) camera.viewProj[4 * k + r] = rows[r][k]; // column-major
    std::memcpy(camera.depthRow, rows[3], sizeof camera.depthRow);
    std::memcpy(camera.right, right, sizeof right);
    std::memcpy(camera.up, up, sizeof up);
    camera.splatCount = splatCount;
    return camera;
}

// ---- Image comparison: per channel, in steps of 1/255. ----------------------------------------
struct Difference { int max; double mean; double pixelsOff; }; // pixelsOff: fraction differing by more than 2
static Difference compare(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    Difference d{0, 0.0, 0.0};
    uint64_t sum = 0, off = 0;
    for (size_t p = 0; p < a.size(); p += 4) {
        int pixelMax = 0;
        for (size_t c = 0; c < 3; ++c) {
            const int diff = std::abs(int(a[p + c]) - int(b[p + c]));
            sum += uint64_t(diff), pixelMax = std::max(pixelMax, diff);
        }
        d.max = std::max(d.max, pixelMax);
        off += pixelMax > 2;
    }
    d.mean = double(sum) / double(a.size() / 4 * 3);
    d.pixelsOff = double(off) / double(a.size() / 4);
    return d;
}

// The picture as a PNG, in one call. The blend keeps the cleared alpha of 1, so the RGBA rows go
// in as they are: the file is opaque.
static bool writePng(const char* path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
    const bool ok = stbi_write_png(path, int(width), int(height), 4, rgba.data(), int(width * 4)) != 0;
    if (!ok) std::fprintf(stderr, "splat: cannot write %s\n", path);
    return ok;
}

// With `why`: that one line, pointing to --help (status 2); without: the usage (status 0).
static int usage(const char* why) {
    if (why) {
        std::fprintf(stderr, "splat: %s (splat --help lists the options)\n", why);
        return 2;
    }
    std::printf("usage: splat [--splats N] [--size WxH] [--order sorted|host|unsorted] [--out file.png] [--check]\n"
                 "  --splats N    how many splats (default 300000)\n"
                 "  --size WxH    the image (default 512x512)\n"
                 "  --order O     sorted: by vksort on the GPU (default); host: std::stable_sort on the CPU;\n"
                 "                unsorted: the input order\n"
                 "  --out F       write the image (with --check: the sorted one) to F as a PNG\n"
                 "  --check       the GPU's order must equal std::stable_sort's, and its picture the host\n"
                 "                order's; exit status 1 if not (the unsorted picture is compared too, for\n"
                 "                information: sparse splats barely overlap)\n");
    return 0;
}

int main(int argc, char** argv) {
    uint32_t splatCount = 300000, width = 512, height = 512;
    Order order = Order::Sorted;
    const char* out = nullptr;
    bool check = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
        if (arg == "--help" || arg == "-h") return usage(nullptr);
        if (arg == "--check") { check = true; continue; }
        if (arg != "--splats" && arg != "--size" && arg != "--order" && arg != "--out") {
            return usage(("unknown option " + arg).c_str());
        }
        if (!next) return usage(("missing value after " + arg).c_str());
        ++i;
        char* end = nullptr;
        if (arg == "--splats") {
            const unsigned long n = std::strtoul(next, &end, 10);
            if (*end || n == 0 || n > 1u << 24) return usage("--splats wants a count from 1 to 2^24");
            splatCount = uint32_t(n);
        } else if (arg == "--size") {
            unsigned w = 0, h = 0;
            char x = 0, extra = 0;
            if (std::sscanf(next, "%u%c%u%c", &w, &x, &h, &extra) != 3 || x != 'x' || w == 0 || h == 0 || w > 4096 ||
                h > 4096)
                return usage("--size wants WxH, each from 1 to 4096");
            width = w, height = h;
        } else if (arg == "--order") {
            const auto* name = std::find_if(std::begin(kOrderNames), std::end(kOrderNames),
                                            [next](const char* n) { return !std::strcmp(n, next); });
            if (name == std::end(kOrderNames)) return usage("--order wants sorted, host or unsorted");
            order = Order(name - kOrderNames);
        } else {
            out = next; // --out
        }
    }

    Context context = createContext("splat", VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT);
    const VkDevice device = context.device;
    // A sorter that serves f32 keys with an argsort's indices: only their pipelines are compiled.
    VksortSorter sorter = createSorter(context, VKSORT_KEY_TYPE_BIT(VKSORT_KEY_TYPE_FLOAT32),
                                       VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_INDEX));

    // ---- vksort's buffers: f32 depth keys, an argsort's indices, scratch. Keys and values are
    // host-visible only so that --order host can read the depths and --check the permutation; a
    // renderer keeps them device-local. ---------------------------------------------------------
    VksortMemoryRequirementsInfo memoryInfo{nullptr, splatCount, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX};
    VksortMemoryRequirements req;
    CHECK(vksortGetMemoryRequirements(sorter, &memoryInfo, &req));
    Buffer keys = createBuffer(context, req.keys.size, req.keys.usage, true);
    Buffer values = createBuffer(context, req.values.size, req.values.usage, true);
    Buffer scratch = createBuffer(context, req.scratch.size, req.scratch.usage, false);
    VksortBindingsCreateInfo bindingsInfo{nullptr, splatCount, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_INDEX,
                                          {keys.buffer, 0, req.keys.size},
                                          {values.buffer, 0, req.values.size},
                                          {scratch.buffer, 0, req.scratch.size}};
    VksortBindings bindings;
    CHECK(vksortCreateBindings(sorter, &bindingsInfo, &bindings));
    VksortSortInfo sortInfo{};
    sortInfo.bindings = bindings;
    sortInfo.count = splatCount;
    sortInfo.order = VKSORT_ORDER_DESCENDING; // farthest first
    // Where the sorted indices will be: the vertex shader's descriptor points there. (All 32 bits
    // are 8 passes, so back in `values`; a bit range of odd pass count would put them in scratch.)
    VksortSortResult result;
    CHECK(vksortGetSortResult(sorter, &sortInfo, &result));

    // ---- Our buffers: the splats, the host's order (--order host/unsorted), the image read-back.
    const std::vector<Splat> scene = makeGalaxy(splatCount);
    const Camera camera = makeCamera(width, height, splatCount);
    Buffer splats = createBuffer(context, sizeof(Splat) * splatCount, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    std::memcpy(splats.mapped, scene.data(), sizeof(Splat) * splatCount);
    Buffer hostOrder = createBuffer(context, 4 * VkDeviceSize(splatCount), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    const VkDeviceSize imageBytes = 4 * VkDeviceSize(width) * height;
    Buffer readback = createBuffer(context, imageBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);

    // ---- The colour target: an RGBA8 image, a render pass that clears it and leaves it ready to
    // be copied, a framebuffer. ------------------------------------------------------------------
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkImageCreateInfo imageInfo{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, nullptr, 0, VK_IMAGE_TYPE_2D, format,
                                {width, height, 1}, 1, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TILING_OPTIMAL,
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT};
    VkImage image;
    CHECK(vkCreateImage(device, &imageInfo, nullptr, &image));
    VkMemoryRequirements imageReq;
    vkGetImageMemoryRequirements(device, image, &imageReq);
    VkDeviceMemory imageMemory = allocateMemory(context, imageReq, false);
    CHECK(vkBindImageMemory(device, image, imageMemory, 0));
    VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, nullptr, 0, image, VK_IMAGE_VIEW_TYPE_2D,
                                   format, {}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkImageView view;
    CHECK(vkCreateImageView(device, &viewInfo, nullptr, &view));
    VkAttachmentDescription attachment{0, format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                       VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
                                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    VkAttachmentReference colorRef{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &colorRef};
    // In: the clear and the layout change wait for the previous frame's copy out of the image
    // (write after read: an execution dependency). Out: the copy waits for the blended writes.
    VkSubpassDependency dependencies[2] = {
        {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
         VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
        {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0}};
    VkRenderPassCreateInfo renderPassInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, nullptr, 0, 1, &attachment, 1,
                                          &subpass, 2, dependencies};
    VkRenderPass renderPass;
    CHECK(vkCreateRenderPass(device, &renderPassInfo, nullptr, &renderPass));
    VkFramebufferCreateInfo framebufferInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, nullptr, 0, renderPass, 1, &view,
                                            width, height, 1};
    VkFramebuffer framebuffer;
    CHECK(vkCreateFramebuffer(device, &framebufferInfo, nullptr, &framebuffer));

    // ---- One layout for both pipelines: 0 splats, 1 keys (the producer writes them), 2 the draw
    // order (the vertex shader reads it); the camera as push constants. Two sets that differ in
    // the draw order only: [0] where the sort leaves its indices, [1] the host's order. ----------
    const VkShaderStageFlags stages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT;
    VkDescriptorBufferInfo ranges[2][3] = {
        {{splats.buffer, 0, VK_WHOLE_SIZE}, {keys.buffer, 0, req.keys.size},
         {result.values.buffer, result.values.offset, result.values.size}},
        {{splats.buffer, 0, VK_WHOLE_SIZE}, {keys.buffer, 0, req.keys.size}, {hostOrder.buffer, 0, VK_WHOLE_SIZE}}};
    VkDescriptorSet sets[2];
    StorageLayout storage = createStorageLayout(context, 3, stages, sizeof(Camera), 2, ranges[0], sets);
    const VkPipelineLayout layout = storage.layout;
    VkPipeline producer = createComputePipeline(context, kDepthSpv, sizeof kDepthSpv, layout);

    VkPipelineShaderStageCreateInfo shaderStages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
         createShaderModule(context, kVertexSpv, sizeof kVertexSpv), "main"},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
         createShaderModule(context, kFragmentSpv, sizeof kFragmentSpv), "main"}};
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                    nullptr, 0, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP};
    VkViewport viewport{0.0f, 0.0f, float(width), float(height), 0.0f, 1.0f};
    VkRect2D scissor{{0, 0}, {width, height}};
    VkPipelineViewportStateCreateInfo viewportState{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0,
                                                    1, &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, nullptr,
                                                     0, VK_SAMPLE_COUNT_1_BIT};
    // "Over" for colour; the destination alpha stays 1 (cleared to 1: 1 * (1 - a) + a).
    VkPipelineColorBlendAttachmentState blend{VK_TRUE,
                                              VK_BLEND_FACTOR_SRC_ALPHA,
                                              VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                                              VK_BLEND_OP_ADD,
                                              VK_BLEND_FACTOR_ONE,
                                              VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                                              VK_BLEND_OP_ADD,
                                              VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                                  VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
    VkPipelineColorBlendStateCreateInfo blendState{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blendState.attachmentCount = 1;
    blendState.pAttachments = &blend;
    VkGraphicsPipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    pipelineInfo.stageCount = 2;
    pipelineInfo.pStages = shaderStages;
    pipelineInfo.pVertexInputState = &vertexInput;
    pipelineInfo.pInputAssemblyState = &assembly;
    pipelineInfo.pViewportState = &viewportState;
    pipelineInfo.pRasterizationState = &raster;
    pipelineInfo.pMultisampleState = &multisample;
    pipelineInfo.pColorBlendState = &blendState;
    pipelineInfo.layout = layout;
    pipelineInfo.renderPass = renderPass;
    VkPipeline drawPipeline;
    CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &drawPipeline));
    for (const VkPipelineShaderStageCreateInfo& s : shaderStages) vkDestroyShaderModule(device, s.module, nullptr);

    const uint32_t groups = (splatCount + 63) / 64;
    auto recordDepths = [&](VkCommandBuffer cmd) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, producer);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 0, nullptr);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof camera, &camera);
        vkCmdDispatch(cmd, groups, 1, 1);
    };

    // The host's orders, from the depths the GPU computes (the same floats the sort sees).
    auto uploadOrder = [&](Order which) {
        auto* indices = static_cast<uint32_t*>(hostOrder.mapped);
        std::iota(indices, indices + splatCount, 0u);
        if (which == Order::Unsorted) return;
        VkCommandBuffer cmd = begin(context);
        recordDepths(cmd);
        barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
        submitAndWait(context);
        const auto* depth = static_cast<const float*>(keys.mapped);
        std::stable_sort(indices, indices + splatCount, [depth](uint32_t a, uint32_t b) { return depth[a] > depth[b]; });
    };

    // One frame, one command buffer: (depths, sort,) draw, copy the image out.
    auto draw = [&](Order which) {
        VkCommandBuffer cmd = begin(context);
        if (which == Order::Sorted) {
            recordDepths(cmd);
            // Before the sort (the header's contract): the producer's key writes visible to the
            // sort's compute-shader reads and writes. (Nothing else used these buffers in this
            // frame, and the last frame has completed: we waited for it.)
            barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            CHECK(vksortCmdSort(cmd, sorter, &sortInfo, nullptr));
            // After: the sort's last writes (compute shader) before the vertex shader reads the order.
            barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        }
        VkClearValue clear{};
        clear.color = {{0.012f, 0.012f, 0.03f, 1.0f}};
        VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer,
                                   {{0, 0}, {width, height}}, 1, &clear};
        vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
        // (The sort touched compute state only: the graphics bindings are ours to make as usual.)
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, drawPipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1,
                                &sets[which == Order::Sorted ? 0 : 1], 0, nullptr);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof camera, &camera);
        vkCmdDraw(cmd, 4, splatCount, 0, 0);
        vkCmdEndRenderPass(cmd);
        VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {width, height, 1}};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
        // The host reads the image, and with --check the sorted indices too.
        barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
        const auto start = std::chrono::steady_clock::now();
        submitAndWait(context);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::printf("splat: %u splats drawn %s at %ux%u in %.0f ms\n", splatCount, kOrderNames[int(which)], width,
                    height, ms);
        const auto* bytes = static_cast<const uint8_t*>(readback.mapped);
        return std::vector<uint8_t>(bytes, bytes + imageBytes);
    };

    int failures = 0;
    std::vector<uint8_t> picture;
    if (!check) {
        if (order != Order::Sorted) uploadOrder(order);
        picture = draw(order);
    } else {
        picture = draw(Order::Sorted);
        // The GPU's permutation (in `values`, result.values: 8 passes), before the next frame
        // overwrites it: the host's stable sort of the same keys must give the very same one
        // (both are stable, descending).
        const auto* sorted = static_cast<const uint32_t*>(values.mapped);
        const std::vector<uint32_t> gpuOrder(sorted, sorted + splatCount);
        uploadOrder(Order::Host);
        const auto* host = static_cast<const uint32_t*>(hostOrder.mapped);
        const size_t same = size_t(std::mismatch(gpuOrder.begin(), gpuOrder.end(), host).first - gpuOrder.begin());
        std::printf("splat: the GPU's order %s the host's stable sort%s\n", same == splatCount ? "equals" : "DIFFERS from",
                    same == splatCount ? "" : (" from position " + std::to_string(same)).c_str());
        failures += same != splatCount;
        const Difference hostDiff = compare(picture, draw(Order::Host));
        uploadOrder(Order::Unsorted);
        const Difference unsortedDiff = compare(picture, draw(Order::Unsorted));
        // Sorted vs host: the same order, so the same picture; 2/255 leaves room for a driver that
        // rasterizes the same primitives slightly differently from one submission to the next.
        // Sorted vs unsorted: wherever translucent splats overlap the picture changes (a mean of
        // 6.2/255 with the defaults on lavapipe), but sparse splats barely overlap, so this
        // comparison informs and the order itself decides.
        const bool hostOk = hostDiff.max <= 2;
        std::printf("splat: sorted vs host:     max %d/255, mean %.4f/255, %.4f%% of pixels off by more than 2 (%s)\n",
                    hostDiff.max, hostDiff.mean, 100 * hostDiff.pixelsOff, hostOk ? "match" : "MISMATCH: want max <= 2");
        std::printf("splat: sorted vs unsorted: max %d/255, mean %.4f/255, %.4f%% of pixels off by more than 2 (%s)\n",
                    unsortedDiff.max, unsortedDiff.mean, 100 * unsortedDiff.pixelsOff,
                    unsortedDiff.max > 2 ? "differ" : "the same: these splats do not overlap");
        failures += !hostOk;
    }
    if (out && !writePng(out, width, height, picture)) ++failures;
    std::printf("splat: validation %s, %d messages\n", context.validation ? "on (with synchronization)" : "off",
                validationMessages());

    vkDestroyPipeline(device, drawPipeline, nullptr);
    vkDestroyPipeline(device, producer, nullptr);
    destroyStorageLayout(context, storage);
    vkDestroyFramebuffer(device, framebuffer, nullptr);
    vkDestroyRenderPass(device, renderPass, nullptr);
    vkDestroyImageView(device, view, nullptr);
    vkDestroyImage(device, image, nullptr);
    vkFreeMemory(device, imageMemory, nullptr);
    vksortDestroyBindings(sorter, bindings); // bindings first, then the sorter
    vksortDestroySorter(sorter);
    for (Buffer* b : {&keys, &values, &scratch, &splats, &hostOrder, &readback}) destroyBuffer(context, *b);
    destroyContext(context);
    return failures != 0 ? 1 : validationMessages() != 0 ? 3 : 0;
}
