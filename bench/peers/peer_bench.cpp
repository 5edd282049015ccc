// SPDX-License-Identifier: MIT
#include "peer_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace peerbench {
namespace {

struct Options {
    vkctx::ContextOptions context;
    toolutil::SweepOptions sweep;
    hostdata::Distribution dist;
    uint64_t seed = 1;
};

const Peer* gPeer = nullptr; // for usage(), which toolutil calls without arguments

std::string names(const std::vector<VksortKeyType>& keys) {
    std::string s;
    for (VksortKeyType k : keys) s += (s.empty() ? "" : ",") + std::string(hostdata::toString(k));
    return s;
}

std::string names(const std::vector<VksortValueType>& values) {
    std::string s;
    for (VksortValueType v : values) s += (s.empty() ? "" : ",") + std::string(hostdata::toString(v));
    return s;
}

void usage() {
    const Peer& p = *gPeer;
    std::printf(
        "usage: %s [options]\n"
        "Times the %s Vulkan radix sort (%s) the way sort-test --bench times vksort: the same keys\n"
        "(--dist, --seed), the input restored by a buffer copy outside the timestamps, back-to-back sorts.\n"
        "  --device INDEX|NAME       device by index or name substring (default: best present)\n"
        "  --counts LIST             e.g. 2^10,2^16,1000003 (default: 2^10..2^28 and three odd sizes)\n"
        "  --keys LIST               key types: %s (default %s)\n"
        "  --values LIST             value kinds: %s (default none)\n"
        "  --dist NAME               key distribution, sort-test's (default uniform):\n"
        "%s"
        "  --seed S                  random seed (default 1; sort-test's --seed gives the same keys)\n"
        "  --reps R                  timed sorts per point, back to back (default 20, at least %u)\n"
        "  --warmup SECONDS          untimed back-to-back sorts before each point (default 2)\n"
        "  --verify-max N            verify one sort of each point up to N keys (default 4194304)\n"
        "  --json FILE               also write the results there ('-' for stdout)\n"
        "  --no-validation           do not load the validation layer\n"
        "%s"
        "columns: median, min, max: ms between GPU timestamps around one sort; Gkeys/s: count / median;\n"
        "  create ms: wall time of creating the library's sorter; ok: verified against std::stable_sort\n"
        "  (yes, no, skipped above --verify-max). Ascending order, all key bits.\n"
        "exit status: 0 every verified point matched, 1 a mismatch or a runtime failure, 2 bad usage\n",
        p.tool, p.library, p.version.c_str(), names(p.keyTypes).c_str(), hostdata::toString(p.keyTypes.front()),
        names(p.valueTypes).c_str(), hostdata::distributionHelp(28).c_str(), toolutil::kMinReps,
        p.ownUsage.c_str());
}

void parse(int argc, char** argv, const Peer& peer, Options* o) {
    using toolutil::Parsed;
    using toolutil::validIf;
    auto own = [&](toolutil::Args& args) -> Parsed {
        const std::string& a = args.option();
        std::string why;
        if (a == "--device") {
            std::string v = args.value();
            uint64_t index = 0;
            if (toolutil::parseUnsigned(v, 1024, &index)) o->context.deviceIndex = int(index);
            else o->context.deviceName = v;
            return Parsed::Ok;
        }
        if (a == "--no-validation") {
            o->context.validation = false;
            return Parsed::Ok;
        }
        if (a == "--dist") return validIf(hostdata::parseDistribution(args.value(), &o->dist, &why), args, why);
        if (a == "--seed") return validIf(toolutil::parseUnsigned(args.value(), UINT64_MAX, &o->seed));
        return peer.ownOption ? peer.ownOption(args) : Parsed::NotMine;
    };
    auto takes = [&](const std::string& option) -> std::string {
        if (option == "--device") return "a device index or a substring of its name";
        if (option == "--dist") return hostdata::distributionNames();
        if (option == "--seed") return "a number up to 2^64 - 1";
        return peer.ownTakes ? peer.ownTakes(option) : std::string();
    };
    toolutil::parseCommandLine(peer.tool, argc, argv, &o->sweep, own, usage, takes);
    toolutil::finishSweep(&o->sweep, peer.keyTypes.front(), VKSORT_VALUE_TYPE_NONE);
    for (VksortKeyType k : o->sweep.keyTypes) {
        if (std::find(peer.keyTypes.begin(), peer.keyTypes.end(), k) == peer.keyTypes.end()) {
            std::fprintf(stderr, "%s: bad value for --keys: %s does not sort %s keys (it sorts %s)\n", peer.tool,
                         peer.library, hostdata::toString(k), names(peer.keyTypes).c_str());
            std::exit(2);
        }
    }
    for (VksortValueType v : o->sweep.valueTypes) {
        if (std::find(peer.valueTypes.begin(), peer.valueTypes.end(), v) == peer.valueTypes.end()) {
            std::fprintf(stderr, "%s: bad value for --values: %s does not move %s values (it takes %s)\n", peer.tool,
                         peer.library, hostdata::toString(v), names(peer.valueTypes).c_str());
            std::exit(2);
        }
    }
    std::string why;
    if (!toolutil::distributionFits(o->dist, o->sweep.keyTypes, &why)) {
        std::fprintf(stderr, "%s: %s\n", peer.tool, why.c_str());
        std::exit(2);
    }
}

// One iteration, as sort-test's: restore the input (untimed), a barrier, a timestamp, the sort, a
// timestamp, and a barrier that orders the sort before the next iteration's restore.
void recordIteration(VkCommandBuffer cmd, PeerRig& rig, uint32_t count, VkQueryPool pool, uint32_t query) {
    rig.recordRestore(cmd, count);
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                           VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0,
                         nullptr, 0, nullptr);
    if (pool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query);
    rig.recordSort(cmd, count);
    if (pool != VK_NULL_HANDLE) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, query + 1);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &after, 0, nullptr, 0, nullptr);
}

// Warm-up (16 back-to-back sorts per submission, resubmitted until `warmupSeconds` are spent), then
// `reps` timed sorts in one submission: ms of each.
std::vector<double> bench(vkctx::Context& ctx, PeerRig& rig, uint32_t count, double warmupSeconds, uint32_t reps) {
    if (warmupSeconds > 0) {
        VkCommandBuffer warm = ctx.allocateCommandBuffer();
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        VKCTX_CHECK(vkBeginCommandBuffer(warm, &begin));
        for (uint32_t i = 0; i < 16; ++i) recordIteration(warm, rig, count, VK_NULL_HANDLE, 0);
        VKCTX_CHECK(vkEndCommandBuffer(warm));
        auto start = std::chrono::steady_clock::now();
        do {
            ctx.submitAndWait(warm);
        } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < warmupSeconds);
        ctx.freeCommandBuffer(warm);
    }
    VkQueryPool pool = ctx.createTimestampPool(2 * reps);
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, pool, 0, 2 * reps);
        for (uint32_t r = 0; r < reps; ++r) recordIteration(cmd, rig, count, pool, 2 * r);
    });
    std::vector<double> ms = ctx.timestampSpansMs(pool, reps);
    vkDestroyQueryPool(ctx.device(), pool, nullptr);
    return ms;
}

hostdata::Verdict sortAndVerify(vkctx::Context& ctx, PeerRig& rig, const hostdata::Data& input) {
    ctx.submitAndWait([&](VkCommandBuffer cmd) { recordIteration(cmd, rig, input.count, VK_NULL_HANDLE, 0); });
    std::vector<uint8_t> keys, values;
    rig.readResult(input.count, &keys, &values);
    std::vector<uint32_t> permutation = hostdata::referencePermutation(input, VKSORT_ORDER_ASCENDING, 0, 0);
    return hostdata::verify(input, permutation, keys.data(), values.empty() ? nullptr : values.data());
}

struct Point {
    VksortKeyType key;
    VksortValueType value;
    uint32_t count;
    toolutil::Stats ms;
    double createMs;
    std::string verified;
};

void writeJson(FILE* f, const Peer& peer, vkctx::Context& ctx, const std::string& configuration,
               const std::vector<Point>& points, const Options& o, double createMs) {
    std::fprintf(f,
                 "{\n  \"library\": \"%s\",\n  \"library_version\": \"%s\",\n  \"configuration\": \"%s\",\n"
                 "  \"device\": \"%s\",\n  \"driver\": \"%s\",\n  \"order\": \"asc\",\n  \"distribution\": \"%s\",\n"
                 "  \"begin_bit\": 0,\n  \"end_bit\": 0,\n  \"reps\": %u,\n  \"warmup_s\": %.3f,\n  \"seed\": %llu,\n"
                 "  \"sorter_create_ms\": %.3f,\n",
                 peer.library, toolutil::jsonEscape(peer.version).c_str(), toolutil::jsonEscape(configuration).c_str(),
                 toolutil::jsonEscape(ctx.properties().deviceName).c_str(), toolutil::jsonEscape(ctx.driverDescription()).c_str(),
                 toolutil::jsonEscape(hostdata::toString(o.dist)).c_str(), o.sweep.reps, o.sweep.warmup,
                 static_cast<unsigned long long>(o.seed), createMs);
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        std::fprintf(f,
                     "    {\"library\": \"%s\", \"key\": \"%s\", \"value\": \"%s\", \"count\": %u, \"dist\": \"%s\", "
                     "\"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, \"keys_per_s\": %.6e, "
                     "\"sorter_create_ms\": %.3f, \"verified\": \"%s\"}%s\n",
                     peer.library, hostdata::toString(p.key), hostdata::toString(p.value), p.count,
                     toolutil::jsonEscape(hostdata::toString(o.dist)).c_str(), p.ms.median, p.ms.min, p.ms.max,
                     double(p.count) / (p.ms.median * 1e-3), p.createMs, p.verified.c_str(),
                     i + 1 < points.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
}

} // namespace

int run(int argc, char** argv, const Peer& peer) {
    gPeer = &peer;
    Options o;
    parse(argc, argv, peer, &o);
    // The device gets what the library asks for and nothing of vksort's own (subgroup size
    // control), and validation leaves the library's barriers alone; where the device lacks some of
    // it, the context names the tool and library and exits with status 1.
    o.context.subgroupSizeControl = false;
    o.context.synchronizationValidation = false;
    o.context.requirements = [&peer](const vkctx::Context& c) {
        vkctx::DeviceRequirements r = peer.requirements(c);
        r.requester = std::string(peer.tool) + ": " + peer.library;
        return r;
    };
    vkctx::Context ctx(o.context);
    const std::string configuration = peer.configuration ? peer.configuration(ctx) : std::string();
    std::printf("%s: %s %s%s%s | %s | %s | asc order, %s keys, all bits, %u timed sorts per point after %.1f s warm-up\n",
                peer.tool, peer.library, peer.version.c_str(), configuration.empty() ? "" : ", ",
                configuration.c_str(), ctx.properties().deviceName, ctx.driverDescription().c_str(),
                hostdata::toString(o.dist).c_str(), o.sweep.reps, o.sweep.warmup);
    std::printf("%-4s %-5s %11s %9s %9s %9s %8s %9s %8s\n", "key", "value", "count", "median", "min", "max", "Gkeys/s",
                "create ms", "ok");
    std::fflush(stdout);

    std::vector<Point> points;
    bool allOk = true;
    double createTotal = 0;
    for (VksortKeyType key : o.sweep.keyTypes) {
        for (VksortValueType value : o.sweep.valueTypes) {
            if (!peer.sorts(key, value)) {
                std::printf("%-4s %-5s skipped: %s does not sort %s keys with %s values\n", hostdata::toString(key),
                            hostdata::toString(value), peer.library, hostdata::toString(key),
                            hostdata::toString(value));
                continue;
            }
            const uint32_t limit = peer.maxCount(ctx, key, value);
            std::vector<uint32_t> counts;
            for (uint32_t c : o.sweep.counts) {
                if (c <= limit) counts.push_back(c);
                else std::printf("%-4s %-5s %11u skipped: above %s's limit of %u keys\n", hostdata::toString(key),
                                 hostdata::toString(value), c, peer.library, limit);
            }
            if (counts.empty()) continue;
            std::unique_ptr<PeerRig> rig = peer.makeRig(ctx, key, value, counts.back());
            createTotal += rig->createMs;
            for (uint32_t count : counts) {
                Point p{key, value, count, {}, rig->createMs, "skipped"};
                hostdata::Data input = hostdata::generate(key, value, count, o.dist, o.seed);
                rig->load(input);
                if (count <= o.sweep.verifyMax) {
                    hostdata::Verdict v = sortAndVerify(ctx, *rig, input);
                    p.verified = v.ok ? "yes" : "no";
                    if (!v.ok) {
                        std::fprintf(stderr, "%s: %s keys, %s values, %u keys: %s\n", peer.tool,
                                     hostdata::toString(key), hostdata::toString(value), count, v.detail.c_str());
                    }
                    allOk = allOk && v.ok;
                }
                p.ms = toolutil::statsOf(bench(ctx, *rig, count, o.sweep.warmup, o.sweep.reps));
                points.push_back(p);
                std::printf("%-4s %-5s %11u %9.4f %9.4f %9.4f %8.3f %9.1f %8s\n", hostdata::toString(key),
                            hostdata::toString(value), count, p.ms.median, p.ms.min, p.ms.max,
                            double(count) / (p.ms.median * 1e-3) * 1e-9, p.createMs, p.verified.c_str());
                std::fflush(stdout);
            }
            vkDeviceWaitIdle(ctx.device());
        }
    }

    if (!o.sweep.jsonPath.empty()) {
        FILE* f = o.sweep.jsonPath == "-" ? stdout : std::fopen(o.sweep.jsonPath.c_str(), "w");
        if (f == nullptr) {
            std::fprintf(stderr, "%s: cannot write %s\n", peer.tool, o.sweep.jsonPath.c_str());
            return 2;
        }
        writeJson(f, peer, ctx, configuration, points, o, createTotal);
        if (f != stdout && std::fclose(f) != 0) {
            std::fprintf(stderr, "%s: error writing %s\n", peer.tool, o.sweep.jsonPath.c_str());
            return 2;
        }
    }
    size_t validation = ctx.validationMessageCount();
    if (validation != 0) std::printf("%s: %zu validation messages\n", peer.tool, validation);
    if (!allOk) std::printf("%s: verification FAILED (details on stderr)\n", peer.tool);
    return allOk && validation == 0 ? 0 : 1;
}

} // namespace peerbench
