// SPDX-License-Identifier: MIT
// sort-test: sorts generated keys (and values) on a Vulkan device with vksort and verifies the
// result against std::stable_sort. Two modes:
//   default   one configuration, --repeat times, one summary line; exit 0 only if all verified.
//   --bench   a sweep of counts x key types x value kinds, timed back to back after a warm-up,
//             with the device's copy bandwidth and a CPU std::sort baseline; table, JSON, CSV.
// --segments runs either mode on many independent segments instead: one vksortCmdSortSegments,
// and unless --no-separate a vksortCmdSort per segment in one command buffer (segment_sorts.cpp);
// --stress is a mode of its own (stress.cpp).
#include <vksort/vksort.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hostdata.hpp"
#include "rig.hpp"
#include "segment_sorts.hpp"
#include "toolutil.hpp"
#include "stress.hpp"
#include "vkcontext.hpp"
#include "vksort_describe.h" // VKSORT_DESCRIBE, the checkout built (cmake/VksortDescribe.cmake)

namespace {

struct Options {
    bool listDevices = false;
    vkctx::ContextOptions context;
    uint32_t count = 1u << 20;
    bool countMax = false; // --count max: vksortGetMaxCount for the key and value type
    uint32_t capacity = 0; // --capacity: the bindings' maxCount (0: the count, or the sweep's largest)
    uint32_t rangeOffset = 0; // --range-offset: bytes before each range in its buffer (rounded up to its alignment)
    VksortKeyType keyType = VKSORT_KEY_TYPE_UINT32;
    VksortValueType valueType = VKSORT_VALUE_TYPE_NONE;
    VksortOrder order = VKSORT_ORDER_ASCENDING;
    hostdata::Distribution dist;
    uint32_t beginBit = 0, endBit = 0;
    uint64_t seed = 1;
    uint32_t repeat = 1;
    uint32_t subgroupSize = 0, workgroupSize = 0, keysPerThread = 0;
    bool timings = false;
    bool indirect = false;
    bool stress = false;
    bool allFormats = false;     // --all-formats: the sorter compiles every format's pipelines
    bool skipConstantDigits = false; // --skip-constant-digits: VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT
    bool callingThreadOnly = false;  // --calling-thread-only: VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT
    double createMs = 0;         // wall time of vksortCreateSorter
    StressOptions stressOptions;
    std::vector<segmented::SegmentLayout> layouts; // --segments (none: the other modes)
    bool noSeparate = false;                       // --no-separate: --segments without the baseline
    // --bench
    bool bench = false;
    toolutil::SweepOptions sweep;
    uint32_t cpuMax = 1u << 24;
    std::string csvPath;
    FILE* jsonFile = nullptr; // --json and --csv, opened before any work (openOutput)
    FILE* csvFile = nullptr;
    std::vector<std::string> given; // the options on the command line, as typed
};

void usage() {
    std::printf(
        "usage: sort-test [options]\n"
        "  --list-devices            list Vulkan devices and exit\n"
        "  --device INDEX|NAME       device by index or name substring (default: best present)\n"
        "  --count N|max             keys to sort (default 1048576; max: the most one binding can hold,\n"
        "                            vksortGetMaxCount for the key and value type)\n"
        "  --capacity N              size the buffers and bindings for N keys, at least every count sorted\n"
        "                            (default: the count, or the sweep's largest): a renderer's buffers\n"
        "                            sized for every splat with fewer visible\n"
        "  --range-offset B          place the keys, values and scratch ranges B bytes into larger\n"
        "                            buffers, each rounded up to a multiple of its reported alignment,\n"
        "                            as a renderer sub-allocating them does (default 0)\n"
        "  --key u32|i32|f32|u64|i64|f64          key type (default u32)\n"
        "  --value none|u32|u64|index             values moved with the keys (default none)\n"
        "  --order asc|desc          sort order (default asc)\n"
        "  --bits BEGIN:END          sort by key bits [BEGIN, END) only (default: all)\n"
        "  --dist NAME               key distribution (default uniform):\n"
        "%s"
        "  --seed S                  random seed (default 1; cub-bench's --seed gives the same keys)\n"
        "  --repeat R                sorts to run and verify, each on new input (default 1)\n"
        "  --timings                 also print the GPU time of the first step (the tile counts, or the\n"
        "                            whole sort where it is one dispatch) and of the passes\n"
        "  --indirect                read the count from a GPU buffer (vksortCmdSortIndirect); with\n"
        "                            --segments, the segmented sort's segment count (segments by offsets\n"
        "                            for every layout; the separate sorts keep host counts)\n"
        "  --skip-constant-digits    leave out the passes whose digit every key shares, decided on the\n"
        "                            GPU (VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT)\n"
        "  --all-formats             create the sorter for every key and value type (default: only\n"
        "                            those sorted; the summary gives the creation time either way)\n"
        "  --calling-thread-only     compile the sorter's pipelines one after another on the calling\n"
        "                            thread (VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT)\n"
        "  --subgroup-size S         require subgroup size S, a power of two in the device's range for\n"
        "                            compute (enables subgroup size control)\n"
        "  --workgroup-size W, --keys-per-thread K   tile overrides\n"
        "  --no-validation           do not load the validation layer\n"
        "  --no-push-descriptors     leave VK_KHR_push_descriptor off and sort through a bindings object,\n"
        "                            the Vulkan 1.1 way (default: the README's way, the buffers given\n"
        "                            at record time where the device offers the extension)\n"
        "  --subgroup-size-control   enable subgroup size control on the device and create the sorter\n"
        "                            with VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT (default: off, as\n"
        "                            the README creates them; speed does not depend on it)\n"
        "benchmark:\n"
        "  --bench                   sweep counts x key types x value kinds (uses --order, --bits, --dist)\n"
        "  --counts LIST             e.g. 2^10,2^16,1000003 (default: 2^10..2^28 and three odd sizes)\n"
        "  --keys LIST               e.g. u32,u64 (default: --key)\n"
        "  --values LIST             e.g. none,u32 (default: --value)\n"
        "  --reps R                  timed sorts per point, back to back (default 20, at least %u)\n"
        "  --warmup SECONDS          untimed back-to-back sorts before each point (default 2)\n"
        "  --verify-max N            verify one sort of each point up to N keys (default 4194304)\n"
        "  --cpu-max N               std::sort baseline up to N keys (default 16777216; 0: none)\n"
        "  --json FILE, --csv FILE   also write the results there ('-' for stdout)\n"
        "  columns (times in ms, from GPU timestamps; medians over the --reps sorts):\n"
        "    median, min, max        one sort, timed by timestamps around it alone\n"
        "    keys/s                  count / median\n"
        "    counts                  the first step: the tile counts; the merge sort's chunk sort; the\n"
        "                            whole sort where it has no passes (up to the sorter's compare-sort\n"
        "                            and one-dispatch counts); an indirect sort's tile counts,\n"
        "                            one-dispatch sort and count copy (if any) together\n"
        "    reorder                 every pass after it (its scan, if any, and its reorder), summed; the\n"
        "                            merge sort's merge step\n"
        "    w/q                     median of the sorts timed with those per-step timestamps\n"
        "    B/key                   the least bytes per key this design moves (keys and values, every pass)\n"
        "    cmd B/s, shd B/s        the device's copy bandwidth on count keys (bytes read + written per\n"
        "                            second): vkCmdCopyBuffer, and a compute-shader copy\n"
        "    floor, floor%%           count x B/key at the faster copy bandwidth, and floor / median\n"
        "    cpu ms, speedup         std::sort of the same keys on the host (- above --cpu-max), / median\n"
        "    ok                      verified against std::stable_sort: yes, no, skipped (above --verify-max)\n"
        "segments (the baseline for a segmented sort):\n"
        "  --segments LIST           sort many independent segments of one array instead, two ways: one\n"
        "                            vksortCmdSortSegments, and a vksortCmdSort per segment in one command\n"
        "                            buffer; verify every segment; one summary line per layout, format and\n"
        "                            way (with --bench: timed, GPU time of the sort or all the sorts and CPU\n"
        "                            time of recording them). Uses --keys and --values (or --key,\n"
        "                            --value), --order, --bits, --dist, --seed;\n"
        "                            sizes drawn from --seed as cub-bench --segments draws them. Layouts:\n"
        "%s"
        "                            e.g. 1000x2000,2x2^22,2^18@1-32,300@0-40,10000~840\n"
        "  --no-separate             with --segments: leave out the separate sorts\n"
        "  columns with --bench: median, min, max (ms from a timestamp before the first sort to one after\n"
        "    the last), keys/s, record ms (CPU time of all the vksortCmdSort calls), us/call, ok\n"
        "stress:\n"
        "  --stress BATCHES:SORTS:MAXCOUNT   random sorts (types, sizes, orders, bit ranges, direct and\n"
        "                            indirect), SORTS per command buffer, BATCHES submissions, all verified\n"
        "exit status: 0 every sort verified, 1 a wrong result or a runtime failure, 2 bad usage\n",
        hostdata::distributionHelp(28).c_str(), toolutil::kMinReps, segmented::layoutHelp(28).c_str());
}

// What each of sort-test's own options takes (the sweep's are toolutil's), for error messages.
std::string takes(const std::string& option) {
    if (option == "--device") return "a device index or a substring of its name (--list-devices lists them)";
    if (option == "--count") {
        return "a number of keys (decimal, 0x hex or 2^N) up to 4294967295, or max (the most the device can hold)";
    }
    if (option == "--key") return "u32, i32, f32, u64, i64 or f64";
    if (option == "--value") return "none, u32, u64 or index";
    if (option == "--order") return "asc or desc";
    if (option == "--bits") return toolutil::bitsTakes();
    if (option == "--dist") return hostdata::distributionNames();
    if (option == "--seed") return "a number up to 2^64 - 1";
    if (option == "--capacity") return "a number of keys (decimal, 0x hex or 2^N) from 1 to 4294967295";
    if (option == "--range-offset") return "a number of bytes (decimal, 0x hex or 2^N) up to 2^20";
    if (option == "--repeat") return "the sorts to run, 1 to 1048576";
    if (option == "--subgroup-size") {
        return "a power of two from 1 to 128 that the device can require for compute (0: the driver's choice)";
    }
    if (option == "--workgroup-size") return "a power of two from 16 to 1024, within the device's limits (0: default)";
    if (option == "--keys-per-thread") return "1 to 32 (0: default)";
    if (option == "--cpu-max") return "a key count (decimal, 0x hex or 2^N); 0 runs no std::sort";
    if (option == "--stress") return "BATCHES:SORTS:MAXCOUNT, three numbers of at least 1, e.g. 4:50:100000";
    if (option == "--csv") return "a file name, or - for stdout";
    if (option == "--segments") return segmented::layoutsTakes();
    return "";
}

using toolutil::parseUnsigned;
using toolutil::siRate;

void parse(int argc, char** argv, Options* o) {
    using toolutil::Parsed;
    using toolutil::validIf;
    auto own = [&](toolutil::Args& args) -> Parsed {
        const std::string& a = args.option();
        uint64_t v = 0;
        std::string why;
        // Options that take no value.
        if (a == "--list-devices") return toolutil::setFlag(&o->listDevices);
        if (a == "--timings") return toolutil::setFlag(&o->timings);
        if (a == "--indirect") return toolutil::setFlag(&o->indirect);
        if (a == "--bench") return toolutil::setFlag(&o->bench);
        if (a == "--all-formats") return toolutil::setFlag(&o->allFormats);
        if (a == "--skip-constant-digits") return toolutil::setFlag(&o->skipConstantDigits);
        if (a == "--calling-thread-only") return toolutil::setFlag(&o->callingThreadOnly);
        if (a == "--no-separate") return toolutil::setFlag(&o->noSeparate);
        if (a == "--no-validation") {
            o->context.validation = false;
            return Parsed::Ok;
        }
        if (a == "--subgroup-size-control") {
            o->context.subgroupSizeControl = true;
            return Parsed::Ok;
        }
        if (a == "--no-push-descriptors") {
            o->context.pushDescriptors = false;
            return Parsed::Ok;
        }
        // Options with a value.
        if (a == "--device") {
            std::string d = args.value();
            if (d.empty()) return Parsed::Invalid;
            if (parseUnsigned(d, 1u << 20, &v)) o->context.deviceIndex = int(v);
            else o->context.deviceName = d;
            return Parsed::Ok;
        }
        if (a == "--count") {
            std::string n = args.value();
            o->countMax = n == "max";
            if (!o->countMax && !parseUnsigned(n, UINT32_MAX, &v)) return Parsed::Invalid;
            o->count = o->countMax ? 0 : uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--capacity") {
            if (!parseUnsigned(args.value(), UINT32_MAX, &v) || v == 0) return Parsed::Invalid;
            o->capacity = uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--range-offset") {
            if (!parseUnsigned(args.value(), 1u << 20, &v)) return Parsed::Invalid;
            o->rangeOffset = uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--key") return validIf(hostdata::parseKeyType(args.value(), &o->keyType));
        if (a == "--value") return validIf(hostdata::parseValueType(args.value(), &o->valueType));
        if (a == "--order") return validIf(hostdata::parseOrder(args.value(), &o->order));
        if (a == "--bits") return validIf(toolutil::parseBits(args.value(), &o->beginBit, &o->endBit, &why), args, why);
        if (a == "--dist") return validIf(hostdata::parseDistribution(args.value(), &o->dist, &why), args, why);
        if (a == "--seed") return validIf(parseUnsigned(args.value(), UINT64_MAX, &o->seed));
        if (a == "--repeat") {
            if (!parseUnsigned(args.value(), 1u << 20, &v) || v == 0) return Parsed::Invalid;
            o->repeat = uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--subgroup-size") {
            if (!parseUnsigned(args.value(), 128, &v)) return Parsed::Invalid;
            if ((v & (v - 1)) != 0) return validIf(false, args, "not a power of two");
            o->subgroupSize = uint32_t(v);
            if (v != 0) o->context.subgroupSizeControl = true; // (a required size needs it)
            return Parsed::Ok;
        }
        if (a == "--workgroup-size") {
            if (!parseUnsigned(args.value(), 1024, &v) || (v != 0 && v < 16)) return Parsed::Invalid;
            if ((v & (v - 1)) != 0) return validIf(false, args, "not a power of two");
            o->workgroupSize = uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--keys-per-thread") {
            if (!parseUnsigned(args.value(), 32, &v)) return Parsed::Invalid;
            o->keysPerThread = uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--cpu-max") {
            if (!parseUnsigned(args.value(), UINT32_MAX, &v)) return Parsed::Invalid;
            o->cpuMax = uint32_t(v);
            return Parsed::Ok;
        }
        if (a == "--stress") {
            const std::string value = args.value();
            uint64_t n[3] = {};
            size_t at = 0;
            for (int i = 0; i < 3; ++i) {
                const size_t colon = i < 2 ? value.find(':', at) : value.size();
                if (colon == std::string::npos) return Parsed::Invalid;
                if (!parseUnsigned(value.substr(at, colon - at), UINT32_MAX, &n[i]) || n[i] == 0) return Parsed::Invalid;
                at = colon + 1;
            }
            o->stress = true;
            o->stressOptions.batches = uint32_t(n[0]);
            o->stressOptions.sortsPerBatch = uint32_t(n[1]);
            o->stressOptions.maxCount = uint32_t(n[2]);
            return Parsed::Ok;
        }
        if (a == "--csv") {
            o->csvPath = args.value();
            return Parsed::Ok;
        }
        if (a == "--segments") return validIf(segmented::parseLayouts(args.value(), &o->layouts, &why), args, why);
        return Parsed::NotMine;
    };
    toolutil::parseCommandLine("sort-test", argc, argv, &o->sweep, own, usage, takes);
    toolutil::finishSweep(&o->sweep, o->keyType, o->valueType);
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--", 2) == 0) o->given.push_back(argv[i]); // (no value starts with --)
    }
}

// An option that would do nothing in the mode chosen (a single verified sort, --bench, --segments
// or --stress) is refused, naming it, with status 2: a run must not silently ignore what it was asked.
void refuseIdleOptions(const Options& o) {
    static const std::vector<std::string> sweepOnly = {"--counts", "--keys", "--values", "--reps", "--warmup",
                                                       "--verify-max", "--cpu-max", "--json", "--csv"};
    static const std::vector<std::string> oneSortOnly = {"--count", "--repeat", "--timings"};
    // --stress makes its own formats, counts, orders, bit ranges, key distributions and buffers.
    static const std::vector<std::string> notStress = {"--count", "--key", "--value", "--order", "--bits", "--dist",
                                                       "--indirect", "--capacity", "--range-offset", "--repeat",
                                                       "--timings", "--bench", "--segments", "--no-separate"};
    // --segments: every segment's count comes from its layout and its buffers are sized for it; a
    // layout's several formats come from --keys and --values with or without --bench.
    static const std::vector<std::string> notSegments = {"--count", "--counts", "--capacity", "--range-offset",
                                                         "--repeat", "--timings", "--cpu-max"};
    static const std::vector<std::string> segmentsOnly = {"--no-separate"};
    static const std::vector<std::string> segmentFormats = {"--keys", "--values"};
    auto in = [](const std::vector<std::string>& list, const std::string& option) {
        return std::find(list.begin(), list.end(), option) != list.end();
    };
    const bool segments = !o.layouts.empty();
    for (const std::string& option : o.given) {
        std::string why;
        if (o.stress && (in(notStress, option) || in(sweepOnly, option))) {
            why = "does nothing with --stress, which makes its own formats, counts, bit ranges and buffers";
        } else if (segments && in(notSegments, option)) {
            if (option == "--cpu-max") {
                why = "does nothing with --segments, which runs no std::sort baseline";
            } else if (option == "--repeat" || option == "--timings") {
                why = "does nothing with --segments (one run per layout and format; --bench times each --reps times)";
            } else {
                why = "does nothing with --segments, whose layouts give every segment's count and size its buffers";
            }
        } else if (segments && in(segmentFormats, option)) {
            continue;
        } else if (!segments && !o.stress && in(segmentsOnly, option)) {
            why = "needs --segments";
        } else if (!o.stress && o.bench && in(oneSortOnly, option)) {
            why = "does nothing with --bench (its counts are --counts; every point is timed --reps times)";
        } else if (!o.stress && !o.bench && in(sweepOnly, option)) {
            why = "needs --bench";
        }
        if (why.empty()) continue;
        std::fprintf(stderr, "sort-test: %s %s\n", option.c_str(), why.c_str());
        std::exit(2);
    }
}

// Opens the --json and --csv files before any work, so that a path that cannot be written ends
// the run at once (status 2) rather than after the whole sweep.
FILE* openOutput(const char* option, const std::string& path) {
    if (path.empty()) return nullptr;
    if (path == "-") return stdout;
    FILE* f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, "sort-test: %s %s: cannot open the file for writing: %s\n", option, path.c_str(),
                     std::strerror(errno));
        std::exit(2);
    }
    return f;
}

// The key types and value kinds sorted: the lists (--keys, --values, or --key and --value alone)
// for --bench and --segments, else --key and --value.
std::vector<VksortKeyType> keyTypesOf(const Options& o) {
    return o.bench || !o.layouts.empty() ? o.sweep.keyTypes : std::vector<VksortKeyType>{o.keyType};
}
std::vector<VksortValueType> valueTypesOf(const Options& o) {
    return o.bench || !o.layouts.empty() ? o.sweep.valueTypes : std::vector<VksortValueType>{o.valueType};
}

// What can be checked before the device: the bit range and the distribution against the key
// types sorted. Ends the program with status 2, naming the option.
void checkOptions(const Options& o) {
    refuseIdleOptions(o);
    if (o.capacity != 0) {
        std::string problem;
        if (!o.bench && !o.countMax && o.capacity < o.count) {
            problem = "--capacity " + std::to_string(o.capacity) + " is below --count " + std::to_string(o.count) +
                      ": the buffers must hold every count sorted";
        } else if (o.bench && o.capacity < o.sweep.counts.back()) {
            problem = "--capacity " + std::to_string(o.capacity) + " is below the largest of --counts, " +
                      std::to_string(o.sweep.counts.back()) + ": the buffers must hold every count sorted";
        }
        if (!problem.empty()) {
            std::fprintf(stderr, "sort-test: %s\n", problem.c_str());
            std::exit(2);
        }
    }
    if (o.stress) return; // (random formats, bit ranges and uniform keys of its own)
    const std::vector<VksortKeyType> keyTypes = keyTypesOf(o);
    std::string why;
    if (!toolutil::bitsFit(o.beginBit, o.endBit, keyTypes, &why) || !toolutil::distributionFits(o.dist, keyTypes, &why)) {
        std::fprintf(stderr, "sort-test: %s\n", why.c_str());
        std::exit(2);
    }
}

// A subgroup size the device cannot require, said before the sorter would refuse it: the
// device's range for compute and whether subgroup size control is on. Ends with status 2.
void checkSubgroupSize(const vkctx::Context& ctx, const Options& o) {
    if (o.subgroupSize == 0) return;
    const vkctx::SubgroupSizeControl& c = ctx.subgroupSizeControl();
    const char* device = ctx.properties().deviceName;
    std::string problem;
    if (!c.offered) {
        problem = std::string(device) + " has no subgroup size control (Vulkan 1.3 or VK_EXT_subgroup_size_control), "
                                        "so it cannot require a subgroup size";
    } else if (!ctx.subgroupSizeControlEnabled()) {
        problem = "subgroup size control needs computeFullSubgroups too, which " + std::string(device) + " lacks";
    } else if ((c.requiredSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) {
        problem = std::string(device) + " cannot require a subgroup size in compute shaders";
    } else if (o.subgroupSize < c.minSize || o.subgroupSize > c.maxSize) {
        problem = std::string(device) + " can require only subgroup sizes in [" + std::to_string(c.minSize) + ", " +
                  std::to_string(c.maxSize) + "] (powers of two) for compute, through subgroup size control";
    }
    if (problem.empty()) return;
    std::fprintf(stderr, "sort-test: --subgroup-size %u: %s\n", o.subgroupSize, problem.c_str());
    std::exit(2);
}

void VKAPI_PTR printMessage(const char* message, void*) { std::fprintf(stderr, "%s\n", message); }

// Invalid usage that reaches vksort despite the checks before each call: a bug in sort-test or in
// vksort, reported as a failure (status 1) rather than with abort().
void VKAPI_PTR onInvalidUsage(const char* message, void*) {
    std::fprintf(stderr, "sort-test: vksort reported invalid usage: %s\n", message);
    std::exit(1);
}

// Creates the sorter for the formats this run sorts (all of them for --stress and --all-formats)
// and records how long creation took: the pipeline compilation a renderer pays at start-up.
// A tile override the device cannot take ends the program with status 2 (vksort's message says
// why), any other failure with status 1.
VksortSorter createSorter(vkctx::Context& ctx, Options* o) {
    VksortSorterCreateInfo info = vkctx::sorterCreateInfo(ctx);
    info.requiredSubgroupSize = o->subgroupSize;
    info.workgroupSize = o->workgroupSize;
    info.keysPerThread = o->keysPerThread;
    info.pfnMessageCallback = printMessage;
    // (vkctx::sorterCreateInfo sets VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT where the context
    // enabled subgroup size control: --subgroup-size-control or --subgroup-size.)
    if (o->skipConstantDigits) info.flags |= VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT;
    if (o->callingThreadOnly) info.flags |= VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT;
    if (!o->layouts.empty()) info.flags |= VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT;
    if (!o->stress && !o->allFormats) {
        for (VksortKeyType k : keyTypesOf(*o)) info.keyTypes |= VKSORT_KEY_TYPE_BIT(k);
        for (VksortValueType v : valueTypesOf(*o)) info.valueTypes |= VKSORT_VALUE_TYPE_BIT(v);
    }
    VksortSorter sorter = VK_NULL_HANDLE;
    const auto start = std::chrono::steady_clock::now();
    const VkResult result = vksortCreateSorter(&info, &sorter);
    if (result != VK_SUCCESS) {
        const bool overrides = o->subgroupSize != 0 || o->workgroupSize != 0 || o->keysPerThread != 0;
        if (result == VK_ERROR_FEATURE_NOT_PRESENT && overrides) {
            std::string given;
            if (o->subgroupSize != 0) given += " --subgroup-size " + std::to_string(o->subgroupSize);
            if (o->workgroupSize != 0) given += " --workgroup-size " + std::to_string(o->workgroupSize);
            if (o->keysPerThread != 0) given += " --keys-per-thread " + std::to_string(o->keysPerThread);
            std::fprintf(stderr, "sort-test:%s: %s cannot run this configuration (the reason is above)\n", given.c_str(),
                         ctx.properties().deviceName);
            std::exit(2);
        }
        std::fprintf(stderr, "sort-test: vksortCreateSorter failed: %s\n", vkctx::resultName(result));
        std::exit(1);
    }
    o->createMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return sorter;
}

// A count above what one binding of the device can hold, said with the capacity (vksort would
// refuse it as invalid usage). Ends the program with status 2.
void checkCount(VksortSorter sorter, const Options& o) {
    const uint32_t capacity = vksortGetMaxCount(sorter, o.keyType, o.valueType);
    if (o.capacity > capacity) {
        std::fprintf(stderr,
                     "sort-test: --capacity %u is above this device's capacity for %s keys with %s values: at most %u "
                     "keys (vksortGetMaxCount)\n",
                     o.capacity, hostdata::toString(o.keyType), hostdata::toString(o.valueType), capacity);
        std::exit(2);
    }
    if (o.count <= capacity) return;
    std::fprintf(stderr,
                 "sort-test: --count %u is above this device's capacity for %s keys with %s values: at most %u keys "
                 "(vksortGetMaxCount; --count max sorts that many)\n",
                 o.count, hostdata::toString(o.keyType), hostdata::toString(o.valueType), capacity);
    std::exit(2);
}

// Whether the sort takes the compare sort (vksortTakesCompareSort): an indirect one by the
// bindings' capacity.
bool comparesPairs(const VksortSorterProperties& p, uint32_t count, uint32_t capacity, uint32_t passes, VksortKeyType key,
                   bool indirect) {
    return vksortTakesCompareSort(&p, key, passes, indirect ? capacity : count) == VK_TRUE;
}

// Whether the sort takes the merge sort (vksortTakesMergeSort): an indirect one by the bindings'
// capacity.
bool mergesChunks(const VksortSorterProperties& p, uint32_t count, uint32_t capacity, uint32_t passes, VksortKeyType key,
                  bool indirect) {
    return vksortTakesMergeSort(&p, key, passes, indirect ? capacity : count) == VK_TRUE;
}

// What the first timestamp slot of a sort of `count` keys timed (query 0 to 1): the tile counts,
// the merge sort's chunk sort, or the whole sort where it has no passes; an indirect sort's tile
// counts, which launch the rest, with its one-dispatch sort (its compare sort, or its chunk sort)
// and any count copy.
std::string firstStep(const VksortSorterProperties& p, uint32_t count, uint32_t capacity, uint32_t passes,
                      VksortKeyType key, bool indirect) {
    if (indirect) {
        if (comparesPairs(p, count, capacity, passes, key, indirect)) return "tile counts and compare sort";
        return mergesChunks(p, count, capacity, passes, key, indirect) ? "tile counts and chunk sort"
                                                                       : "tile counts and one-dispatch sort";
    }
    if (comparesPairs(p, count, capacity, passes, key, indirect)) return "compare sort";
    if (mergesChunks(p, count, capacity, passes, key, indirect)) return "chunk sort";
    return count <= p.singleDispatchMaxCount ? "one-dispatch sort" : "tile counts";
}

std::string formatsNote(const Options& o) {
    char text[128];
    std::snprintf(text, sizeof text, "sorter created in %.1f ms (%s%s%s)", o.createMs,
                  o.stress || o.allFormats ? "all formats" : "these formats only",
                  o.skipConstantDigits ? ", skipping constant digits" : "",
                  o.callingThreadOnly ? ", on the calling thread" : "");
    return text;
}

VksortSortInfo withOptions(VksortSortInfo info, const Options& o) {
    info.order = o.order;
    info.beginBit = o.beginBit;
    info.endBit = o.endBit;
    return info;
}

// The sorted bits as BEGIN:END, with the key's width as END when --bits was not given (its 0:0
// means all bits); one range per key width in a sweep of several.
std::string bitRange(const Options& o, const std::vector<VksortKeyType>& keyTypes) {
    std::vector<uint32_t> widths;
    for (VksortKeyType k : keyTypes) {
        const uint32_t bits = hostdata::keyBits(k);
        if (std::find(widths.begin(), widths.end(), bits) == widths.end()) widths.push_back(bits);
    }
    std::string text;
    for (uint32_t bits : widths) {
        if (!text.empty()) text += ", ";
        text += std::to_string(o.beginBit) + ":" + std::to_string(o.endBit != 0 ? o.endBit : bits);
        if (widths.size() > 1) text += " (" + std::to_string(bits) + "-bit keys)";
    }
    return text;
}

hostdata::Verdict sortAndVerify(SortRig& rig, const hostdata::Data& input, const VksortSortInfo& info, RunTimes* times) {
    std::vector<uint8_t> keys, values;
    *times = rig.sortOnce(info, &keys, &values);
    std::vector<uint32_t> permutation = hostdata::referencePermutation(input, info.order, info.beginBit, info.endBit);
    return hostdata::verify(input, permutation, keys.data(),
                            vksortValueSize(input.valueType) != 0 ? values.data() : nullptr);
}

int runVerify(vkctx::Context& ctx, VksortSorter sorter, const Options& o) {
    SortRig rig(ctx, sorter, o.keyType, o.valueType, std::max({o.count, o.capacity, 1u}), o.indirect, o.rangeOffset);
    VksortSortInfo info = withOptions(rig.sortInfo(o.count), o);
    VksortSortResult where{};
    VKCTX_CHECK(vksortGetSortResult(sorter, &info, &where));

    std::vector<double> totals, kinds[2];
    bool allVerified = true;
    std::string failure;
    for (uint32_t r = 0; r < o.repeat; ++r) {
        hostdata::Data input = hostdata::generate(o.keyType, o.valueType, o.count, o.dist, o.seed + r);
        rig.load(input);
        RunTimes t{};
        hostdata::Verdict verdict = sortAndVerify(rig, input, info, &t);
        totals.push_back(t.total);
        for (int k = 0; k < 2; ++k) kinds[k].push_back(t.kinds[k]);
        if (!verdict.ok && allVerified) failure = "repeat " + std::to_string(r) + ": " + verdict.detail;
        allVerified = allVerified && verdict.ok;
    }
    double median = statsOf(totals).median;
    double rate = median > 0 ? double(o.count) / (median * 1e-3) : 0.0;
    size_t validation = ctx.validationMessageCount();
    std::string validationNote = validation ? ", " + std::to_string(validation) + " validation messages" : "";
    // Each sort is submitted alone, after an upload, on a device that idled while the host
    // generated and verified: a GPU runs it at idle clocks (an H100 took 11.2 ms for 2^24 keys
    // that --bench sorts in 2.3 ms), so the line says what the figure is.
    const std::string timed = o.repeat == 1 ? "one sort" : "median of " + std::to_string(o.repeat) + " sorts";
    std::printf("sort-test: %s | %s | %s keys, %s values, %s, %s, bits %s | %u keys | GPU %.3f ms, %s (%s from idle, "
                "no warm-up: --bench for speed) | %s | %s%s\n",
                ctx.properties().deviceName, ctx.driverDescription().c_str(), hostdata::toString(o.keyType),
                hostdata::toString(o.valueType), o.order == VKSORT_ORDER_ASCENDING ? "asc" : "desc",
                hostdata::toString(o.dist).c_str(), bitRange(o, {o.keyType}).c_str(), o.count, median,
                siRate(rate, "keys/s").c_str(), timed.c_str(), formatsNote(o).c_str(), allVerified ? "verified" : "FAILED",
                validationNote.c_str());
    if (o.timings && o.count > 0) {
        VksortSorterProperties properties{};
        vksortGetSorterProperties(sorter, &properties);
        const uint32_t tiles = (o.count + rig.tileSize() - 1) / rig.tileSize();
        const uint32_t capacity = o.capacity != 0 ? o.capacity : o.count;
        const std::string first = firstStep(properties, o.count, capacity, where.passCount, o.keyType, o.indirect);
        if (comparesPairs(properties, o.count, capacity, where.passCount, o.keyType, o.indirect)) {
            std::printf("sort-test: GPU time (median): %s %.3f ms (every pair of keys compared, no passes)\n",
                        first.c_str(), statsOf(kinds[0]).median);
        } else if (mergesChunks(properties, o.count, capacity, where.passCount, o.keyType, o.indirect)) {
            const uint32_t chunks = (o.count + properties.singleDispatchMaxCount - 1) / properties.singleDispatchMaxCount;
            std::printf("sort-test: GPU time (median): %s %.3f ms, merge %.3f ms (%u %s of up to %u keys)\n", first.c_str(),
                        statsOf(kinds[0]).median, statsOf(kinds[1]).median, chunks, chunks == 1 ? "chunk" : "chunks",
                        properties.singleDispatchMaxCount);
        } else if (o.count <= properties.singleDispatchMaxCount) {
            std::printf("sort-test: GPU time (median): %s %.3f ms (all %u passes in one workgroup)\n", first.c_str(),
                        statsOf(kinds[0]).median, where.passCount);
        } else {
            std::printf("sort-test: GPU time (median): %s %.3f ms, scans and reorders %.3f ms over %u passes of %u "
                        "tiles\n",
                        first.c_str(), statsOf(kinds[0]).median, statsOf(kinds[1]).median, where.passCount, tiles);
        }
    }
    if (!allVerified) std::printf("sort-test: %s\n", failure.c_str());
    return allVerified && validation == 0 ? 0 : 1;
}

// ---- Benchmark ---------------------------------------------------------------------------------

struct Point {
    VksortKeyType key;
    VksortValueType value;
    uint32_t count;
    uint32_t passes;
    Stats total, withQueries, kinds[2]; // kinds: the first step (firstStep()), the passes after it
    Stats recordUs;       // CPU time of the vksort call that records one sort
    uint32_t tiles;       // tiles per pass
    uint32_t capacity;    // the bindings' maxCount the point was sorted with
    double bytesPerKey;   // leastBytesPerKey()
    double copyBandwidth; // bytes/s, vkCmdCopyBuffer on count * key bytes, read + written
    double shaderCopyBandwidth; // bytes/s, the same copy by a compute shader (copy.comp)
    double floorMs;       // count * bytesPerKey / the faster of the two copy bandwidths
    double cpuMs;         // std::sort wall time, 0 when not measured
    std::string verified; // "yes", "no", or "skipped"
};

// The least memory traffic per key that this pipeline's design moves (docs/PERFORMANCE.md, "The
// floor"): the tile counts read the keys once, then every pass reads and writes keys and values
// once (an argsort's first pass makes its values instead of reading them); a sort in one dispatch
// (at most singleDispatchMaxCount keys, never an indirect one) reads them once and writes them once,
// and the compare sort (at most compareSortMaxCount keys) as well, then reads and writes them again
// to copy the result back after an even pass count; the merge sort's chunk sort reads and writes
// them once, and its merge step once more.
double leastBytesPerKey(VksortKeyType key, VksortValueType value, uint32_t passes, bool singleDispatch, bool compare,
                        bool merge) {
    const double kb = vksortKeySize(key), vb = vksortValueSize(value);
    const double valueReads = value == VKSORT_VALUE_TYPE_INDEX ? 0.0 : 1.0;
    if (compare) return 2 * kb + (valueReads + 1) * vb + (passes % 2 == 0 ? 2 * (kb + vb) : 0.0);
    if (merge) return 4 * kb + (valueReads + 3) * vb;
    if (singleDispatch) return 2 * kb + (valueReads + 1) * vb;
    return (2.0 * passes + 1) * kb + (2.0 * passes - (1 - valueReads)) * vb;
}

double cpuSortMs(const hostdata::Data& input, const Options& o) {
    std::vector<uint64_t> keys(input.count);
    for (uint32_t i = 0; i < input.count; ++i) {
        keys[i] = hostdata::sortKey(input.key(i), input.keyType, o.order, o.beginBit, o.endBit);
    }
    auto start = std::chrono::steady_clock::now();
    if (input.valueType == VKSORT_VALUE_TYPE_NONE) {
        std::sort(keys.begin(), keys.end());
    } else {
        std::vector<std::pair<uint64_t, uint64_t>> pairs(input.count);
        for (uint32_t i = 0; i < input.count; ++i) pairs[i] = {keys[i], input.value(i)};
        start = std::chrono::steady_clock::now();
        std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Which way the sorter sorted `count` keys (VksortSorterProperties): by comparing every pair, by
// sorting chunks and merging them, in one dispatch, or by tiles with a scan of their digit counts
// per pass.
const char* methodOf(const VksortSorterProperties& sorter, uint32_t count, uint32_t capacity, uint32_t passes,
                     VksortKeyType key, bool indirect) {
    if (comparesPairs(sorter, count, capacity, passes, key, indirect)) return "compare";
    if (mergesChunks(sorter, count, capacity, passes, key, indirect)) return "merge";
    return count <= sorter.singleDispatchMaxCount ? "single" : "scan";
}

// What each record carries so that numbers cannot be taken for another build's or tile's.
void writeJson(FILE* f, const vkctx::Context& ctx, const std::vector<Point>& points, const Options& o,
               const VksortSorterProperties& sorter) {
    std::fprintf(f, "{\n  \"vksort_commit\": \"%s\",\n  \"device\": \"%s\",\n  \"driver\": \"%s\",\n  \"order\": \"%s\",\n"
                 "  \"distribution\": \"%s\",\n",
                 VKSORT_DESCRIBE, toolutil::jsonEscape(ctx.properties().deviceName).c_str(),
                 toolutil::jsonEscape(ctx.driverDescription()).c_str(), o.order == VKSORT_ORDER_ASCENDING ? "asc" : "desc",
                 toolutil::jsonEscape(hostdata::toString(o.dist)).c_str());
    std::fprintf(f, "  \"workgroup_size\": %u,\n  \"keys_per_thread\": %u,\n  \"tile_size\": %u,\n"
                 "  \"single_dispatch_max_count\": %u,\n  \"compare_sort_max_count\": %u,\n"
                 "  \"merge_sort_max_count\": %u,\n  \"merge_sort_max_count_64\": %u,\n  \"subgroup_size\": %u,\n",
                 sorter.workgroupSize, sorter.keysPerThread, sorter.tileSize, sorter.singleDispatchMaxCount,
                 sorter.compareSortMaxCount, sorter.mergeSortMaxCount, sorter.mergeSortMaxCount64, sorter.subgroupSize);
    std::fprintf(f, "  \"sorter_create_ms\": %.3f,\n  \"sorter_all_formats\": %s,\n", o.createMs,
                 o.allFormats ? "true" : "false");
    std::fprintf(f, "  \"indirect\": %s,\n  \"subgroup_size_control\": %s,\n  \"skip_constant_digits\": %s,\n"
                 "  \"push_descriptors\": %s,\n  \"range_offset\": %u,\n",
                 o.indirect ? "true" : "false", ctx.subgroupSizeControlEnabled() ? "true" : "false",
                 o.skipConstantDigits ? "true" : "false", ctx.pushDescriptorsEnabled() ? "true" : "false", o.rangeOffset);
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        double rate = double(p.count) / (p.total.median * 1e-3);
        std::fprintf(f,
                     "    {\"key\": \"%s\", \"value\": \"%s\", \"count\": %u, \"capacity\": %u, \"dist\": \"%s\", \"method\": \"%s\", \"passes\": %u, \"median_ms\": %.6f, "
                     "\"min_ms\": %.6f, \"max_ms\": %.6f, \"keys_per_s\": %.6e, \"counts_ms\": %.6f, "
                     "\"reorder_ms\": %.6f, \"tiles\": %u, \"median_ms_with_pass_queries\": %.6f, \"bytes_per_key\": %.1f, \"copy_bytes_per_s\": %.6e, "
                     "\"shader_copy_bytes_per_s\": %.6e, \"floor_ms\": %.6f, "
                     "\"fraction_of_floor\": %.4f, \"cpu_sort_ms\": %.6f, \"record_us\": %.3f, \"verified\": \"%s\"}%s\n",
                     hostdata::toString(p.key), hostdata::toString(p.value), p.count, p.capacity, hostdata::toString(o.dist).c_str(),
                     methodOf(sorter, p.count, p.capacity, p.passes, p.key, o.indirect), p.passes, p.total.median, p.total.min, p.total.max, rate, p.kinds[0].median,
                     p.kinds[1].median, p.tiles,
                     p.withQueries.median, p.bytesPerKey, p.copyBandwidth, p.shaderCopyBandwidth, p.floorMs,
                     p.floorMs / p.total.median, p.cpuMs, p.recordUs.median,
                     p.verified.c_str(), i + 1 < points.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
}

// Every row names the build and the tile as well: a row copied out of its file still says what ran.
void writeCsv(FILE* f, const std::vector<Point>& points, const Options& o, const VksortSorterProperties& sorter) {
    std::fprintf(f, "key,value,count,passes,median_ms,min_ms,max_ms,keys_per_s,counts_ms,reorder_ms,tiles,"
                    "bytes_per_key,copy_bytes_per_s,shader_copy_bytes_per_s,floor_ms,fraction_of_floor,cpu_sort_ms,verified,"
                    "vksort_commit,workgroup_size,keys_per_thread,tile_size,method,dist\n");
    for (const Point& p : points) {
        std::fprintf(f, "%s,%s,%u,%u,%.6f,%.6f,%.6f,%.6e,%.6f,%.6f,%u,%.1f,%.6e,%.6e,%.6f,%.4f,%.6f,%s,%s,%u,%u,%u,%s,%s\n",
                     hostdata::toString(p.key), hostdata::toString(p.value), p.count, p.passes, p.total.median,
                     p.total.min, p.total.max, double(p.count) / (p.total.median * 1e-3), p.kinds[0].median,
                     p.kinds[1].median, p.tiles, p.bytesPerKey, p.copyBandwidth, p.shaderCopyBandwidth, p.floorMs,
                     p.floorMs / p.total.median, p.cpuMs, p.verified.c_str(), VKSORT_DESCRIBE, sorter.workgroupSize,
                     sorter.keysPerThread, sorter.tileSize, methodOf(sorter, p.count, p.capacity, p.passes, p.key, o.indirect), hostdata::toString(o.dist).c_str());
    }
}

void writeTo(FILE* f, const std::function<void(FILE*)>& write) {
    if (f == nullptr) return;
    write(f);
    if (f != stdout) std::fclose(f);
}

int runBench(vkctx::Context& ctx, VksortSorter sorter, const Options& o) {
    const toolutil::SweepOptions& sweep = o.sweep; // counts ascending and unique (finishSweep)
    VksortSorterProperties properties{};
    vksortGetSorterProperties(sorter, &properties);

    std::printf("sort-test --bench: vksort %s | %s | %s | %s order, %s keys, bits %s, %u timed sorts per point after "
                "%.1f s warm-up | tile %u (%u x %u), one dispatch up to %u, compare sort up to %u, merge sort up to "
                "%u (64-bit keys %u), subgroup %u | %s\n",
                VKSORT_DESCRIBE, ctx.properties().deviceName, ctx.driverDescription().c_str(),
                o.order == VKSORT_ORDER_ASCENDING ? "asc" : "desc", hostdata::toString(o.dist).c_str(),
                bitRange(o, sweep.keyTypes).c_str(), sweep.reps, sweep.warmup, properties.tileSize,
                properties.workgroupSize, properties.keysPerThread, properties.singleDispatchMaxCount,
                properties.compareSortMaxCount, properties.mergeSortMaxCount, properties.mergeSortMaxCount64,
                properties.subgroupSize, formatsNote(o).c_str());
    std::printf("%-4s %-5s %11s %9s %9s %9s %8s %8s %8s %8s %6s %8s %8s %8s %6s %9s %8s %4s\n", "key", "value",
                "count", "median", "min", "max", "keys/s", "counts", "reorder", "w/q", "B/key", "cmd B/s", "shd B/s",
                "floor", "floor%", "cpu ms", "speedup", "ok");

    std::vector<Point> points;
    bool allOk = true;
    for (VksortKeyType key : sweep.keyTypes) {
        for (VksortValueType value : sweep.valueTypes) {
            uint32_t limit = vksortGetMaxCount(sorter, key, value);
            std::vector<uint32_t> counts;
            for (uint32_t c : sweep.counts) {
                if (c >= 1 && c <= limit) counts.push_back(c);
                else std::printf("%-4s %-5s %11u skipped: above this device's capacity for the format, %u keys "
                                 "(vksortGetMaxCount)\n", hostdata::toString(key), hostdata::toString(value), c, limit);
            }
            if (counts.empty()) continue;
            if (o.capacity > limit) {
                std::printf("%-4s %-5s skipped: --capacity %u is above this device's capacity for the format, %u "
                            "keys (vksortGetMaxCount)\n", hostdata::toString(key), hostdata::toString(value), o.capacity,
                            limit);
                continue;
            }
            const uint32_t capacity = std::max(counts.back(), o.capacity);
            SortRig rig(ctx, sorter, key, value, capacity, o.indirect, o.rangeOffset);
            for (uint32_t count : counts) {
                Point p{};
                p.key = key;
                p.value = value;
                p.count = count;
                hostdata::Data input = hostdata::generate(key, value, count, o.dist, o.seed);
                rig.load(input);
                VksortSortInfo info = withOptions(rig.sortInfo(count), o);
                VksortSortResult where{};
                VKCTX_CHECK(vksortGetSortResult(sorter, &info, &where));
                p.passes = where.passCount;
                if (count <= sweep.verifyMax) {
                    RunTimes ignored{};
                    bool ok = sortAndVerify(rig, input, info, &ignored).ok;
                    p.verified = ok ? "yes" : "no";
                    allOk = allOk && ok;
                } else {
                    p.verified = "skipped";
                }
                p.cpuMs = count <= o.cpuMax ? cpuSortMs(input, o) : 0.0;
                std::vector<RunTimes> runs = rig.bench(info, sweep.warmup, sweep.reps);
                std::vector<double> totals, withQueries, kinds[2], recordUs;
                for (const RunTimes& r : runs) {
                    totals.push_back(r.total);
                    recordUs.push_back(r.recordUs);
                    withQueries.push_back(r.withQueries);
                    for (int k = 0; k < 2; ++k) kinds[k].push_back(r.kinds[k]);
                }
                p.total = statsOf(totals);
                p.withQueries = statsOf(withQueries);
                p.recordUs = statsOf(recordUs);
                for (int k = 0; k < 2; ++k) p.kinds[k] = statsOf(kinds[k]);
                p.tiles = (count + rig.tileSize() - 1) / rig.tileSize();
                p.capacity = capacity;
                uint32_t kb = vksortKeySize(key);
                p.bytesPerKey = leastBytesPerKey(key, value, p.passes, !o.indirect && count <= properties.singleDispatchMaxCount,
                                                 comparesPairs(properties, count, capacity, p.passes, key, o.indirect),
                                                 mergesChunks(properties, count, capacity, p.passes, key, o.indirect));
                p.copyBandwidth = rig.copyBandwidth(uint64_t(count) * kb, sweep.reps);
                p.shaderCopyBandwidth = rig.shaderCopyBandwidth(uint64_t(count) * kb, sweep.reps);
                double best = std::max(p.copyBandwidth, p.shaderCopyBandwidth);
                p.floorMs = best > 0 ? double(count) * p.bytesPerKey / best * 1e3 : 0.0;
                points.push_back(p);
                double rate = double(count) / (p.total.median * 1e-3);
                // std::sort is not run above --cpu-max: "-" there, not 0.
                auto measured = [](double v, const char* format) {
                    char text[32] = "-";
                    if (v > 0) std::snprintf(text, sizeof text, format, v);
                    return std::string(text);
                };
                std::printf("%-4s %-5s %11u %9.4f %9.4f %9.4f %8s %8.4f %8.4f %8.4f %6.0f %8s %8s %8.4f %5.1f%% "
                            "%9s %8s %4s\n",
                            hostdata::toString(key), hostdata::toString(value), count, p.total.median, p.total.min,
                            p.total.max, siRate(rate, "").c_str(), p.kinds[0].median, p.kinds[1].median,
                            p.withQueries.median, p.bytesPerKey, siRate(p.copyBandwidth, "").c_str(),
                            siRate(p.shaderCopyBandwidth, "").c_str(), p.floorMs, 100.0 * p.floorMs / p.total.median,
                            measured(p.cpuMs, "%.3f").c_str(),
                            measured(p.cpuMs / p.total.median, p.cpuMs >= 100 * p.total.median ? "%.0f" : "%.3g").c_str(),
                            p.verified.c_str());
                std::fflush(stdout);
            }
        }
    }
    writeTo(o.jsonFile, [&](FILE* f) { writeJson(f, ctx, points, o, properties); });
    writeTo(o.csvFile, [&](FILE* f) { writeCsv(f, points, o, properties); });
    size_t validation = ctx.validationMessageCount();
    if (validation != 0) std::printf("sort-test --bench: %zu validation messages\n", validation);
    return allOk && validation == 0 ? 0 : 1;
}

// What runSegments() needs of the options.
SegmentsOptions segmentsOptions(const Options& o) {
    SegmentsOptions s;
    s.layouts = o.layouts;
    s.keyTypes = keyTypesOf(o);
    s.valueTypes = valueTypesOf(o);
    s.order = o.order;
    s.beginBit = o.beginBit;
    s.endBit = o.endBit;
    s.dist = o.dist;
    s.seed = o.seed;
    s.bench = o.bench;
    s.reps = o.sweep.reps;
    s.warmup = o.sweep.warmup;
    s.verifyMax = o.sweep.verifyMax;
    s.jsonFile = o.jsonFile;
    s.csvFile = o.csvFile;
    s.bitsText = bitRange(o, s.keyTypes);
    s.sorterNote = formatsNote(o);
    s.createMs = o.createMs;
    s.allFormats = o.allFormats;
    s.skipConstantDigits = o.skipConstantDigits;
    s.segmentCountOnGpu = o.indirect;
    s.separate = !o.noSeparate;
    return s;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    o.context.pushDescriptors = true; // the README's way, where the device offers it
    parse(argc, argv, &o);
    if (o.listDevices) {
        vkctx::printDevices();
        return 0;
    }
    checkOptions(o);
    o.jsonFile = openOutput("--json", o.sweep.jsonPath);
    o.csvFile = openOutput("--csv", o.csvPath);
    vksortSetAssertHandler(onInvalidUsage, nullptr);
    vkctx::Context ctx(o.context);
    checkSubgroupSize(ctx, o);
    VksortSorter sorter = createSorter(ctx, &o);
    if (o.countMax) o.count = vksortGetMaxCount(sorter, o.keyType, o.valueType);
    if (!o.stress && !o.bench && o.layouts.empty()) checkCount(sorter, o);
    o.stressOptions.seed = o.seed;
    int status = o.stress             ? runStress(ctx, sorter, o.stressOptions)
                 : !o.layouts.empty() ? runSegments(ctx, sorter, segmentsOptions(o))
                 : o.bench            ? runBench(ctx, sorter, o)
                                      : runVerify(ctx, sorter, o);
    vksortDestroySorter(sorter);
    return status;
}
