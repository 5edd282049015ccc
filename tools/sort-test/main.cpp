// sort-test: sorts generated keys (and values) on a Vulkan device with vksort, verifies the
// result against std::stable_sort and prints one summary line with the GPU time from timestamp
// queries. Exits 0 only if every repetition verified.
#include <vksort/vksort.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hostdata.hpp"
#include "vkcontext.hpp"

namespace {

struct Options {
    bool listDevices = false;
    vkctx::ContextOptions context;
    uint32_t count = 1u << 20;
    VksortKeyType keyType = VKSORT_KEY_TYPE_UINT32;
    VksortValueType valueType = VKSORT_VALUE_TYPE_NONE;
    VksortOrder order = VKSORT_ORDER_ASCENDING;
    hostdata::Distribution dist;
    uint32_t beginBit = 0, endBit = 0;
    uint64_t seed = 1;
    uint32_t repeat = 1;
    uint32_t subgroupSize = 0, workgroupSize = 0, keysPerThread = 0;
};

void usage() {
    std::printf(
        "usage: sort-test [options]\n"
        "  --list-devices            list Vulkan devices and exit\n"
        "  --device INDEX|NAME       device by index or name substring (default: best present)\n"
        "  --count N                 keys to sort (default 1048576)\n"
        "  --key u32|i32|f32|u64|i64|f64          key type (default u32)\n"
        "  --value none|u32|u64|index             values moved with the keys (default none)\n"
        "  --order asc|desc          sort order (default asc)\n"
        "  --bits BEGIN:END          sort by key bits [BEGIN, END) only (default: all)\n"
        "  --dist uniform|sorted|reversed|equal|few:K|bits:B   key distribution (default uniform)\n"
        "  --seed S                  random seed (default 1)\n"
        "  --repeat R                sorts to run and verify (default 1)\n"
        "  --subgroup-size S         require subgroup size S (needs subgroup size control)\n"
        "  --workgroup-size W, --keys-per-thread K   tile overrides\n"
        "  --no-validation           do not load the validation layer\n");
}

bool parseUnsigned(const char* text, uint64_t max, uint64_t* out) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(text, &end, 0);
    if (end == text || *end != '\0' || v > max) return false;
    *out = v;
    return true;
}

bool parse(int argc, char** argv, Options* o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        uint64_t v = 0;
        if (a == "--list-devices") o->listDevices = true;
        else if (a == "--device") {
            const char* d = next();
            if (parseUnsigned(d, 1u << 20, &v)) o->context.deviceIndex = int(v);
            else o->context.deviceName = d;
        } else if (a == "--count") {
            if (!parseUnsigned(next(), UINT32_MAX, &v)) return false;
            o->count = uint32_t(v);
        } else if (a == "--key") {
            if (!hostdata::parseKeyType(next(), &o->keyType)) return false;
        } else if (a == "--value") {
            if (!hostdata::parseValueType(next(), &o->valueType)) return false;
        } else if (a == "--order") {
            std::string s = next();
            if (s == "asc") o->order = VKSORT_ORDER_ASCENDING;
            else if (s == "desc") o->order = VKSORT_ORDER_DESCENDING;
            else return false;
        } else if (a == "--bits") {
            unsigned b = 0, e = 0;
            if (std::sscanf(next(), "%u:%u", &b, &e) != 2) return false;
            o->beginBit = b;
            o->endBit = e;
        } else if (a == "--dist") {
            if (!hostdata::parseDistribution(next(), &o->dist)) return false;
        } else if (a == "--seed") {
            if (!parseUnsigned(next(), UINT64_MAX, &o->seed)) return false;
        } else if (a == "--repeat") {
            if (!parseUnsigned(next(), 1u << 20, &v) || v == 0) return false;
            o->repeat = uint32_t(v);
        } else if (a == "--subgroup-size") {
            if (!parseUnsigned(next(), 128, &v)) return false;
            o->subgroupSize = uint32_t(v);
        } else if (a == "--workgroup-size") {
            if (!parseUnsigned(next(), 1024, &v)) return false;
            o->workgroupSize = uint32_t(v);
        } else if (a == "--keys-per-thread") {
            if (!parseUnsigned(next(), 1024, &v)) return false;
            o->keysPerThread = uint32_t(v);
        } else if (a == "--no-validation") o->context.validation = false;
        else if (a == "--help" || a == "-h") {
            usage();
            std::exit(0);
        } else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return false;
        }
    }
    return true;
}

void VKAPI_PTR printMessage(const char* message, void*) { std::fprintf(stderr, "%s\n", message); }

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    if (o.listDevices) {
        for (const auto& d : vkctx::listDevices()) {
            std::printf("%u: %s (%s, Vulkan %u.%u, %s)\n", d.index, d.name.c_str(), vkctx::deviceTypeName(d.type),
                        VK_API_VERSION_MAJOR(d.apiVersion), VK_API_VERSION_MINOR(d.apiVersion), d.driverInfo.c_str());
        }
        return 0;
    }

    vkctx::Context ctx(o.context);
    VksortSorterCreateInfo createInfo{};
    createInfo.apiVersion = ctx.apiVersion();
    createInfo.instance = ctx.instance();
    createInfo.physicalDevice = ctx.physicalDevice();
    createInfo.device = ctx.device();
    createInfo.pfnGetInstanceProcAddr = vkGetInstanceProcAddr;
    createInfo.pfnGetDeviceProcAddr = vkGetDeviceProcAddr;
    createInfo.flags = ctx.subgroupSizeControlEnabled() ? VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT : 0;
    createInfo.requiredSubgroupSize = o.subgroupSize;
    createInfo.workgroupSize = o.workgroupSize;
    createInfo.keysPerThread = o.keysPerThread;
    createInfo.pfnMessageCallback = printMessage;
    VksortSorter sorter = VK_NULL_HANDLE;
    VKCTX_CHECK(vksortCreateSorter(&createInfo, &sorter));

    uint32_t capacity = std::max(o.count, 1u);
    VksortMemoryRequirementsInfo requirementsInfo{nullptr, capacity, o.keyType, o.valueType};
    VksortMemoryRequirements requirements{};
    VKCTX_CHECK(vksortGetMemoryRequirements(sorter, &requirementsInfo, &requirements));

    uint32_t kb = hostdata::keyBytes(o.keyType), vb = hostdata::valueBytes(o.valueType);
    vkctx::Buffer keys = ctx.createBuffer(requirements.keys.size, requirements.keys.usage, false);
    vkctx::Buffer scratch = ctx.createBuffer(requirements.scratch.size, requirements.scratch.usage, false);
    vkctx::Buffer values{}, pristineKeys{}, pristineValues{};
    if (vb != 0) values = ctx.createBuffer(requirements.values.size, requirements.values.usage, false);
    pristineKeys = ctx.createBuffer(requirements.keys.size, 0, false);
    bool copyValues = o.valueType == VKSORT_VALUE_TYPE_UINT32 || o.valueType == VKSORT_VALUE_TYPE_UINT64;
    if (copyValues) pristineValues = ctx.createBuffer(requirements.values.size, 0, false);

    VksortBindingsCreateInfo bindingsInfo{};
    bindingsInfo.maxCount = capacity;
    bindingsInfo.keyType = o.keyType;
    bindingsInfo.valueType = o.valueType;
    bindingsInfo.keys = {keys.buffer, 0, keys.size};
    if (vb != 0) bindingsInfo.values = {values.buffer, 0, values.size};
    bindingsInfo.scratch = {scratch.buffer, 0, scratch.size};
    VksortBindings bindings = VK_NULL_HANDLE;
    VKCTX_CHECK(vksortCreateBindings(sorter, &bindingsInfo, &bindings));

    VksortSortInfo sortInfo{};
    sortInfo.bindings = bindings;
    sortInfo.count = o.count;
    sortInfo.order = o.order;
    sortInfo.beginBit = o.beginBit;
    sortInfo.endBit = o.endBit;
    VksortSortResult where{};
    VKCTX_CHECK(vksortGetSortResult(sorter, &sortInfo, &where));

    VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queryInfo.queryCount = 2;
    VkQueryPool queries = VK_NULL_HANDLE;
    VKCTX_CHECK(vkCreateQueryPool(ctx.device(), &queryInfo, nullptr, &queries));

    std::vector<double> milliseconds;
    bool allVerified = true;
    std::string failure;
    for (uint32_t r = 0; r < o.repeat; ++r) {
        hostdata::Data input = hostdata::generate(o.keyType, o.valueType, o.count, o.dist, o.seed + r);
        ctx.upload(pristineKeys, 0, input.keys.data(), input.keys.size());
        if (copyValues) ctx.upload(pristineValues, 0, input.values.data(), input.values.size());
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            if (o.count > 0) {
                VkBufferCopy keyCopy{0, 0, VkDeviceSize(o.count) * kb};
                vkCmdCopyBuffer(cmd, pristineKeys.buffer, keys.buffer, 1, &keyCopy);
                if (copyValues) {
                    VkBufferCopy valueCopy{0, 0, VkDeviceSize(o.count) * vb};
                    vkCmdCopyBuffer(cmd, pristineValues.buffer, values.buffer, 1, &valueCopy);
                }
            }
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
            vkCmdResetQueryPool(cmd, queries, 0, 2);
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
            VKCTX_CHECK(vksortCmdSort(cmd, sorter, &sortInfo, nullptr));
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
            VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                                 &after, 0, nullptr, 0, nullptr);
        });
        uint64_t stamps[2] = {0, 0};
        VKCTX_CHECK(vkGetQueryPoolResults(ctx.device(), queries, 0, 2, sizeof(stamps), stamps, sizeof(uint64_t),
                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        milliseconds.push_back(double(stamps[1] - stamps[0]) * ctx.properties().limits.timestampPeriod * 1e-6);

        std::vector<uint8_t> outKeys(size_t(o.count) * kb), outValues(size_t(o.count) * vb);
        const vkctx::Buffer& keySource = where.inScratch ? scratch : keys;
        ctx.download(keySource, where.keys.offset, outKeys.data(), outKeys.size());
        if (vb != 0) {
            const vkctx::Buffer& valueSource = where.inScratch ? scratch : values;
            ctx.download(valueSource, where.values.offset, outValues.data(), outValues.size());
        }
        std::vector<uint32_t> permutation = hostdata::referencePermutation(input, o.order, o.beginBit, o.endBit);
        hostdata::Verdict verdict = hostdata::verify(input, permutation, outKeys.data(), vb ? outValues.data() : nullptr);
        if (!verdict.ok && allVerified) failure = "repeat " + std::to_string(r) + ": " + verdict.detail;
        allVerified = allVerified && verdict.ok;
    }

    std::sort(milliseconds.begin(), milliseconds.end());
    double median = milliseconds[milliseconds.size() / 2];
    double keysPerSecond = median > 0 ? double(o.count) / (median * 1e-3) : 0.0;
    size_t validation = ctx.validationMessageCount();
    std::printf("sort-test: %s | %s | %s keys, %s values, %s, %s, bits %u:%u | %u keys | GPU %.3f ms (median of %u) | "
                "%.3f Gkeys/s | %s%s\n",
                ctx.properties().deviceName, ctx.driverDescription().c_str(), hostdata::toString(o.keyType),
                hostdata::toString(o.valueType), o.order == VKSORT_ORDER_ASCENDING ? "asc" : "desc",
                hostdata::toString(o.dist).c_str(), where.passCount ? o.beginBit : 0,
                o.endBit == 0 ? hostdata::keyBits(o.keyType) : o.endBit, o.count, median, o.repeat,
                keysPerSecond * 1e-9, allVerified ? "verified" : "FAILED",
                validation ? (", " + std::to_string(validation) + " validation messages").c_str() : "");
    if (!allVerified) std::printf("sort-test: %s\n", failure.c_str());

    vkDestroyQueryPool(ctx.device(), queries, nullptr);
    vksortDestroyBindings(sorter, bindings);
    vksortDestroySorter(sorter);
    for (vkctx::Buffer* b : {&keys, &values, &scratch, &pristineKeys, &pristineValues}) ctx.destroyBuffer(*b);
    return allVerified && validation == 0 ? 0 : 1;
}
