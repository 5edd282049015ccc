// SPDX-License-Identifier: MIT
// cub-bench: the reference point for vksort on NVIDIA GPUs. Times cub::DeviceRadixSort on the
// same sweep as `sort-test --bench` (counts x key types x value kinds, the same keys of the same
// --dist and --seed, back-to-back sorts after a warm-up, median of R) and writes the same JSON
// keys where they apply, so tools/plot-bench.py can put both libraries on one chart.
//
// What is timed: one SortKeys/SortPairs call (or its Descending twin) between two CUDA events on
// one stream. Before each timed sort the input is restored from a pristine device copy, outside
// the events, because the DoubleBuffer variant sorts in place. Temporary storage is allocated
// once per point, before any timing.
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "hostdata.hpp"
#include "toolutil.hpp"

namespace {

// ---- Errors ------------------------------------------------------------------------------------

// Every CUDA call goes through this: a failed call ends the program with a non-zero status and
// says where, since a benchmark that carries on after an error reports numbers for work that
// never ran.
void checkCuda(cudaError_t status, const char* call, const char* file, int line) {
    if (status == cudaSuccess) return;
    std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorName(status),
                 cudaGetErrorString(status));
    std::exit(1);
}
// Variadic so that a call with template arguments (commas outside parentheses) passes whole.
#define CUDA_CHECK(...) checkCuda((__VA_ARGS__), #__VA_ARGS__, __FILE__, __LINE__)

// ---- Types ----------------------------------------------------------------------------------

// Key and value kinds and their names, the input of every distribution and the comparison with
// std::stable_sort are sort-test's own (harness/hostdata), so that one --dist and --seed give both
// tools the same input and their JSON matches key for key.
using hostdata::isFloat;
using hostdata::keyBits;
using hostdata::toString;
using toolutil::jsonEscape;
using toolutil::parseUnsigned;
using toolutil::Stats;
using toolutil::statsOf;

// ---- Options -----------------------------------------------------------------------------------

struct Options {
    int device = 0;
    toolutil::SweepOptions sweep; // counts, keys, values, reps, warmup, verify-max, json: as sort-test's
    bool descending = false;
    uint32_t beginBit = 0, endBit = 0; // endBit 0: all bits of the key type, as in sort-test
    hostdata::Distribution dist;       // --dist, as sort-test's
    uint64_t seed = 1;
    bool graph = false;
};

void usage() {
    std::printf(
        "usage: cub-bench [options]\n"
        "  --device N                CUDA device index (default 0)\n"
        "  --counts LIST             e.g. 2^10,2^16,1000003 (default: 2^10..2^28 step 2^2, 1000003,\n"
        "                            10000019, 100000007)\n"
        "  --keys LIST               u32,i32,f32,u64,i64,f64 (default u32)\n"
        "  --values LIST             none,u32,u64,index (default none; index: argsort, SortPairs on\n"
        "                            0..n-1 written before each sort, untimed)\n"
        "  --order asc|desc          sort order (default asc)\n"
        "  --bits BEGIN:END          sort by key bits [BEGIN, END) only (default: all)\n"
        "  --dist NAME               key distribution, sort-test's (default uniform):\n"
        "%s"
        "  --reps R                  timed sorts per point, back to back (default 20, at least %u)\n"
        "  --warmup SECONDS          untimed back-to-back sorts before each point (default 2)\n"
        "  --seed S                  random seed (default 1; sort-test's seed and --dist give the same keys)\n"
        "  --verify-max N            verify one sort of each point up to N keys against\n"
        "                            std::stable_sort (default 4194304)\n"
        "  --graph                   launch each sort as a CUDA graph (captured once per point)\n"
        "                            instead of through the stream: no host launch gaps\n"
        "  --json FILE               also write the results there ('-' for stdout)\n"
        "columns: median, min, max: ms between CUDA events around one sort; Gkeys/s: count / median;\n"
        "  temp MiB: CUB's temporary storage; ok: verified (yes, no, skipped above --verify-max)\n"
        "exit status: 0 every verified point matched, 1 a mismatch or a CUDA failure, 2 bad usage\n",
        hostdata::distributionHelp(28).c_str(), toolutil::kMinReps);
}

// What each of cub-bench's own options takes (the sweep's are toolutil's), for error messages.
std::string takes(const std::string& option) {
    if (option == "--device") return "a CUDA device index, 0 to 1024";
    if (option == "--order") return "asc or desc";
    if (option == "--bits") return toolutil::bitsTakes();
    if (option == "--dist") return hostdata::distributionNames();
    if (option == "--seed") return "a number up to 2^64 - 1";
    return "";
}

void parse(int argc, char** argv, Options* o) {
    using toolutil::Parsed;
    using toolutil::validIf;
    auto own = [&](toolutil::Args& args) -> Parsed {
        const std::string& a = args.option();
        uint64_t v = 0;
        std::string why;
        if (a == "--device") {
            if (!parseUnsigned(args.value(), 1024, &v)) return Parsed::Invalid;
            o->device = int(v);
            return Parsed::Ok;
        }
        if (a == "--order") {
            VksortOrder order = VKSORT_ORDER_ASCENDING;
            if (!hostdata::parseOrder(args.value(), &order)) return Parsed::Invalid;
            o->descending = order == VKSORT_ORDER_DESCENDING;
            return Parsed::Ok;
        }
        if (a == "--bits") return validIf(toolutil::parseBits(args.value(), &o->beginBit, &o->endBit, &why), args, why);
        if (a == "--dist") return validIf(hostdata::parseDistribution(args.value(), &o->dist, &why), args, why);
        if (a == "--seed") return validIf(parseUnsigned(args.value(), UINT64_MAX, &o->seed));
        if (a == "--graph") return toolutil::setFlag(&o->graph);
        return Parsed::NotMine;
    };
    toolutil::parseCommandLine("cub-bench", argc, argv, &o->sweep, own, usage, takes);
    toolutil::finishSweep(&o->sweep, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE);
}

// "all bits", or "bits BEGIN:END" (END "key width" where 0 and several widths are swept).
std::string bitsLabel(const Options& o) {
    if (o.beginBit == 0 && o.endBit == 0) return "all bits";
    return "bits " + std::to_string(o.beginBit) + ":" + (o.endBit != 0 ? std::to_string(o.endBit) : "key width");
}

// ---- Host data ---------------------------------------------------------------------------------

// std::stable_sort of the input under hostdata::sortKey with CUB's treatment of zeros (CUB's
// documented key transformations are vksort's except there; keyorder.hpp), compared with the
// device's result by hostdata::verify (keys bit for bit, values or the argsort's permutation
// exactly). Returns "" when they match.
std::string verifyAs(const hostdata::Data& in, bool descending, uint32_t beginBit, uint32_t endBit,
                     keyorder::Zeros zeros, const std::vector<uint8_t>& outKeys,
                     const std::vector<uint8_t>& outValues) {
    VksortOrder sortOrder = descending ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
    std::vector<uint64_t> order(in.count);
    for (uint32_t i = 0; i < in.count; ++i) {
        order[i] = hostdata::sortKey(in.key(i), in.keyType, sortOrder, beginBit, endBit, zeros);
    }
    std::vector<uint32_t> permutation(in.count);
    for (uint32_t i = 0; i < in.count; ++i) permutation[i] = i;
    std::stable_sort(permutation.begin(), permutation.end(), [&](uint32_t a, uint32_t b) { return order[a] < order[b]; });
    hostdata::Verdict verdict =
        hostdata::verify(in, permutation, outKeys.data(), outValues.empty() ? nullptr : outValues.data());
    return verdict.ok ? "" : verdict.detail;
}

// verifyAs under CUB's order; where its two treatments of zeros differ (keyorder::Zeros), either
// passes.
std::string verify(const hostdata::Data& in, bool descending, uint32_t beginBit, uint32_t endBit,
                   const std::vector<uint8_t>& outKeys, const std::vector<uint8_t>& outValues) {
    std::string failure = verifyAs(in, descending, beginBit, endBit, keyorder::Zeros::Equal, outKeys, outValues);
    bool partial = beginBit != 0 || (endBit != 0 && endBit != keyBits(in.keyType));
    if (!failure.empty() && descending && isFloat(in.keyType) && partial) {
        if (verifyAs(in, descending, beginBit, endBit, keyorder::Zeros::EqualOnesweep, outKeys, outValues).empty()) {
            return "";
        }
    }
    return failure;
}

// ---- Device side -------------------------------------------------------------------------------

// The argsort's values: 0..n-1, rewritten before every sort because the sort permutes them.
__global__ void iotaKernel(uint32_t* values, uint32_t count) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) values[i] = i;
}

// Device buffers for one (key type, value type) at the largest count of the sweep, reused for
// every smaller count, as sort-test's rig does: no allocation between points.
struct Buffers {
    void* keys[2] = {};
    void* values[2] = {};
    void* pristineKeys = nullptr;
    void* pristineValues = nullptr; // u32 and u64 values only; the argsort's are written by iotaKernel

    static size_t bytesFor(VksortKeyType k, VksortValueType v, uint32_t count) {
        size_t kb = size_t(count) * vksortKeySize(k), vb = size_t(count) * vksortValueSize(v);
        bool pristineValues = v == VKSORT_VALUE_TYPE_UINT32 || v == VKSORT_VALUE_TYPE_UINT64;
        return 3 * kb + (pristineValues ? 3 : 2) * vb;
    }
    Buffers(VksortKeyType k, VksortValueType v, uint32_t count) {
        size_t kb = size_t(count) * vksortKeySize(k), vb = size_t(count) * vksortValueSize(v);
        for (void*& p : keys) CUDA_CHECK(cudaMalloc(&p, kb));
        CUDA_CHECK(cudaMalloc(&pristineKeys, kb));
        if (vb != 0) {
            for (void*& p : values) CUDA_CHECK(cudaMalloc(&p, vb));
            if (v != VKSORT_VALUE_TYPE_INDEX) CUDA_CHECK(cudaMalloc(&pristineValues, vb));
        }
    }
    ~Buffers() {
        // cudaFree(nullptr) is a no-op; errors here would be left over from earlier work, which
        // CUDA_CHECK already reported.
        for (void* p : {keys[0], keys[1], values[0], values[1], pristineKeys, pristineValues}) CUDA_CHECK(cudaFree(p));
    }
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
};

// One CUB call: the temp-storage query when temp is null, else the sort. cub::NullType as the
// value type selects the keys-only entry points.
template <typename K, typename V>
cudaError_t cubSort(void* temp, size_t& tempBytes, cub::DoubleBuffer<K>& keys, cub::DoubleBuffer<V>& values,
                    uint32_t count, int beginBit, int endBit, bool descending, cudaStream_t stream) {
    using cub::DeviceRadixSort;
    if constexpr (std::is_same_v<V, cub::NullType>) {
        return descending ? DeviceRadixSort::SortKeysDescending(temp, tempBytes, keys, count, beginBit, endBit, stream)
                          : DeviceRadixSort::SortKeys(temp, tempBytes, keys, count, beginBit, endBit, stream);
    } else {
        return descending
                   ? DeviceRadixSort::SortPairsDescending(temp, tempBytes, keys, values, count, beginBit, endBit, stream)
                   : DeviceRadixSort::SortPairs(temp, tempBytes, keys, values, count, beginBit, endBit, stream);
    }
}

struct Point {
    VksortKeyType key;
    VksortValueType value;
    uint32_t count;
    Stats ms;
    size_t tempBytes;
    std::string verified; // "yes", "no" or "skipped", as in sort-test
};

// Sorts `in` (already uploaded to the pristine buffers) and times it. Returns false only for a
// verification failure; CUDA errors end the program.
template <typename K, typename V>
bool runPoint(const Options& o, Buffers& b, const hostdata::Data& in, cudaStream_t stream, Point* p) {
    constexpr bool kPairs = !std::is_same_v<V, cub::NullType>;
    const uint32_t n = in.count;
    const size_t keyBytesTotal = size_t(n) * sizeof(K);
    const int beginBit = int(o.beginBit);
    const int endBit = o.endBit == 0 ? int(sizeof(K) * 8) : int(o.endBit);

    // Fresh DoubleBuffers every run: CUB flips the selector to wherever the result landed, and the
    // next run starts again from buffer 0, which restore() has just refilled.
    auto doubleKeys = [&]() { return cub::DoubleBuffer<K>(static_cast<K*>(b.keys[0]), static_cast<K*>(b.keys[1])); };
    auto doubleValues = [&]() {
        if constexpr (kPairs) return cub::DoubleBuffer<V>(static_cast<V*>(b.values[0]), static_cast<V*>(b.values[1]));
        else return cub::DoubleBuffer<V>();
    };

    // Untimed: put the input back where the sort reads it.
    auto restore = [&]() {
        CUDA_CHECK(cudaMemcpyAsync(b.keys[0], b.pristineKeys, keyBytesTotal, cudaMemcpyDeviceToDevice, stream));
        if constexpr (kPairs) {
            if (in.valueType == VKSORT_VALUE_TYPE_INDEX) {
                iotaKernel<<<std::min<uint32_t>(n / 256 + 1, 4096), 256, 0, stream>>>(static_cast<uint32_t*>(b.values[0]), n);
                CUDA_CHECK(cudaGetLastError());
            } else {
                CUDA_CHECK(cudaMemcpyAsync(b.values[0], b.pristineValues, size_t(n) * sizeof(V), cudaMemcpyDeviceToDevice,
                                           stream));
            }
        }
    };

    size_t tempBytes = 0;
    {
        auto dk = doubleKeys();
        auto dv = doubleValues();
        CUDA_CHECK(cubSort<K, V>(nullptr, tempBytes, dk, dv, n, beginBit, endBit, o.descending, stream));
    }
    void* temp = nullptr;
    CUDA_CHECK(cudaMalloc(&temp, std::max<size_t>(tempBytes, 1)));
    p->tempBytes = tempBytes;

    // The sort as timed. In graph mode the CUB call is captured once (after the DoubleBuffers are
    // set up exactly as every later run's) and replayed, so launches cost one graph launch;
    // resultKeys/resultValues say which buffer of each pair holds the result.
    cudaGraphExec_t graphExec = nullptr;
    int resultKeys = 0, resultValues = 0;
    if (o.graph) {
        auto dk = doubleKeys();
        auto dv = doubleValues();
        cudaGraph_t graph = nullptr;
        // Relaxed: CUB queries the device and its kernels' attributes while it dispatches, which
        // the stricter capture modes may refuse; nothing else runs on this thread meanwhile.
        CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
        cudaError_t sortStatus = cubSort<K, V>(temp, tempBytes, dk, dv, n, beginBit, endBit, o.descending, stream);
        cudaError_t captureStatus = cudaStreamEndCapture(stream, &graph);
        CUDA_CHECK(sortStatus);
        CUDA_CHECK(captureStatus);
        CUDA_CHECK(cudaGraphInstantiate(&graphExec, graph, 0));
        CUDA_CHECK(cudaGraphDestroy(graph));
        resultKeys = dk.selector;
        if constexpr (kPairs) resultValues = dv.selector;
    }
    auto sort = [&]() {
        if (graphExec != nullptr) {
            CUDA_CHECK(cudaGraphLaunch(graphExec, stream));
            return;
        }
        auto dk = doubleKeys();
        auto dv = doubleValues();
        CUDA_CHECK(cubSort<K, V>(temp, tempBytes, dk, dv, n, beginBit, endBit, o.descending, stream));
        resultKeys = dk.selector;
        if constexpr (kPairs) resultValues = dv.selector;
    };

    // Verify one sort through the same path that is timed. The alternate buffers are poisoned first:
    // they still hold the previous (smaller) point's sorted output, which an element the sort
    // failed to write could otherwise pass for. (Buffer 0 holds the input, so a result that lands
    // there after an even number of passes is checked against unsorted leftovers instead.)
    bool ok = true;
    if (n <= o.sweep.verifyMax) {
        CUDA_CHECK(cudaMemsetAsync(b.keys[1], 0xA5, keyBytesTotal, stream));
        if constexpr (kPairs) CUDA_CHECK(cudaMemsetAsync(b.values[1], 0xA5, size_t(n) * sizeof(V), stream));
        restore();
        sort();
        CUDA_CHECK(cudaStreamSynchronize(stream));
        CUDA_CHECK(cudaGetLastError());
        std::vector<uint8_t> outKeys(keyBytesTotal), outValues;
        CUDA_CHECK(cudaMemcpy(outKeys.data(), b.keys[resultKeys], keyBytesTotal, cudaMemcpyDeviceToHost));
        if constexpr (kPairs) {
            outValues.resize(size_t(n) * sizeof(V));
            CUDA_CHECK(cudaMemcpy(outValues.data(), b.values[resultValues], outValues.size(), cudaMemcpyDeviceToHost));
        }
        std::string failure = verify(in, o.descending, o.beginBit, o.endBit, outKeys, outValues);
        ok = failure.empty();
        p->verified = ok ? "yes" : "no";
        if (!ok) std::fprintf(stderr, "cub-bench: %s keys, %s values, %u keys: %s\n", toString(in.keyType),
                              toString(in.valueType), n, failure.c_str());
    } else {
        p->verified = "skipped";
    }

    // Warm-up: back-to-back sorts for at least `warmup` seconds, so the clocks (345 MHz when idle
    // on these GPUs) are up and the first-launch costs are paid before timing. Batches of 16
    // between host checks keep the GPU busy without queueing seconds of work.
    if (o.sweep.warmup > 0) {
        auto start = std::chrono::steady_clock::now();
        do {
            for (int i = 0; i < 16; ++i) {
                restore();
                sort();
            }
            CUDA_CHECK(cudaStreamSynchronize(stream));
        } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < o.sweep.warmup);
    }

    // Timed: every run enqueued back to back, the restore before each start event, one sync at the
    // end; each sample is one sort's span on the GPU's timeline.
    std::vector<cudaEvent_t> events(2 * size_t(o.sweep.reps));
    for (cudaEvent_t& e : events) CUDA_CHECK(cudaEventCreate(&e));
    for (uint32_t r = 0; r < o.sweep.reps; ++r) {
        restore();
        CUDA_CHECK(cudaEventRecord(events[2 * r], stream));
        sort();
        CUDA_CHECK(cudaEventRecord(events[2 * r + 1], stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> samples(o.sweep.reps);
    for (uint32_t r = 0; r < o.sweep.reps; ++r) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, events[2 * r], events[2 * r + 1]));
        samples[r] = ms;
    }
    for (cudaEvent_t e : events) CUDA_CHECK(cudaEventDestroy(e));
    p->ms = statsOf(samples);

    if (graphExec != nullptr) CUDA_CHECK(cudaGraphExecDestroy(graphExec));
    CUDA_CHECK(cudaFree(temp));
    return ok;
}

template <typename K>
bool runPointForKey(const Options& o, Buffers& b, const hostdata::Data& in, cudaStream_t stream, Point* p) {
    switch (in.valueType) {
    case VKSORT_VALUE_TYPE_NONE: return runPoint<K, cub::NullType>(o, b, in, stream, p);
    case VKSORT_VALUE_TYPE_UINT32:
    case VKSORT_VALUE_TYPE_INDEX: return runPoint<K, uint32_t>(o, b, in, stream, p);
    case VKSORT_VALUE_TYPE_UINT64: return runPoint<K, uint64_t>(o, b, in, stream, p);
    default: return false; // parse() admits only the four kinds
    }
}

bool dispatchPoint(const Options& o, Buffers& b, const hostdata::Data& in, cudaStream_t stream, Point* p) {
    switch (in.keyType) {
    case VKSORT_KEY_TYPE_UINT32: return runPointForKey<uint32_t>(o, b, in, stream, p);
    case VKSORT_KEY_TYPE_INT32: return runPointForKey<int32_t>(o, b, in, stream, p);
    case VKSORT_KEY_TYPE_FLOAT32: return runPointForKey<float>(o, b, in, stream, p);
    case VKSORT_KEY_TYPE_UINT64: return runPointForKey<uint64_t>(o, b, in, stream, p);
    case VKSORT_KEY_TYPE_INT64: return runPointForKey<int64_t>(o, b, in, stream, p);
    case VKSORT_KEY_TYPE_FLOAT64: return runPointForKey<double>(o, b, in, stream, p);
    default: return false; // parse() admits only the six types
    }
}

// ---- Output ------------------------------------------------------------------------------------

// The kernel driver's version, as nvidia-smi shows it (e.g. 580.159.04), from the Linux driver's
// proc file; the CUDA API reports only the CUDA version it supports. Empty when not readable.
std::string kernelDriverVersion() {
    FILE* f = std::fopen("/proc/driver/nvidia/version", "r");
    if (f == nullptr) return "";
    char line[512] = {};
    std::string version;
    if (std::fgets(line, sizeof line, f) != nullptr) {
        // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Tue ..." or, for the open
        // module, "... Open Kernel Module for x86_64  580.159.04  Release Build ...": the first
        // token made of digits and dots with a dot after a digit is the version.
        for (char* token = std::strtok(line, " \t\n"); token != nullptr; token = std::strtok(nullptr, " \t\n")) {
            bool digitsAndDots = std::isdigit(static_cast<unsigned char>(token[0])) != 0 && std::strchr(token, '.');
            for (const char* c = token; *c != '\0' && digitsAndDots; ++c) {
                digitsAndDots = std::isdigit(static_cast<unsigned char>(*c)) != 0 || *c == '.';
            }
            if (digitsAndDots) {
                version = token;
                break;
            }
        }
    }
    std::fclose(f);
    return version;
}

struct Environment {
    std::string device, driver, runtime;
};

Environment describe(int device) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    int driverVersion = 0, runtimeVersion = 0;
    CUDA_CHECK(cudaDriverGetVersion(&driverVersion));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtimeVersion));
    auto cudaVersion = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
    Environment e;
    e.device = prop.name;
    std::string kernel = kernelDriverVersion();
    e.driver = (kernel.empty() ? std::string("NVIDIA") : "NVIDIA " + kernel) + ", CUDA " + cudaVersion(driverVersion);
    e.runtime = "CUDA runtime " + cudaVersion(runtimeVersion) + ", CUB " + std::to_string(CUB_MAJOR_VERSION) + "." +
                std::to_string(CUB_MINOR_VERSION) + "." + std::to_string(CUB_SUBMINOR_VERSION) + ", sm_" +
                std::to_string(prop.major) + std::to_string(prop.minor);
    return e;
}

void writeJson(FILE* f, const Environment& env, const std::vector<Point>& points, const Options& o) {
    std::fprintf(f,
                 "{\n  \"library\": \"cub\",\n  \"device\": \"%s\",\n  \"driver\": \"%s\",\n  \"runtime\": \"%s\",\n"
                 "  \"order\": \"%s\",\n  \"distribution\": \"%s\",\n  \"begin_bit\": %u,\n  \"end_bit\": %u,\n"
                 "  \"launch\": \"%s\",\n  \"reps\": %u,\n  \"warmup_s\": %.3f,\n  \"seed\": %llu,\n",
                 jsonEscape(env.device).c_str(), jsonEscape(env.driver).c_str(), jsonEscape(env.runtime).c_str(),
                 o.descending ? "desc" : "asc", jsonEscape(hostdata::toString(o.dist)).c_str(), o.beginBit, o.endBit, o.graph ? "graph" : "stream", o.sweep.reps, o.sweep.warmup,
                 static_cast<unsigned long long>(o.seed));
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        double rate = double(p.count) / (p.ms.median * 1e-3);
        std::fprintf(f,
                     "    {\"library\": \"cub\", \"key\": \"%s\", \"value\": \"%s\", \"count\": %u, \"dist\": \"%s\", "
                     "\"median_ms\": %.6f, "
                     "\"min_ms\": %.6f, \"max_ms\": %.6f, \"keys_per_s\": %.6e, \"temp_storage_bytes\": %zu, "
                     "\"verified\": \"%s\"}%s\n",
                     toString(p.key), toString(p.value), p.count, jsonEscape(hostdata::toString(o.dist)).c_str(), p.ms.median, p.ms.min, p.ms.max, rate, p.tempBytes,
                     p.verified.c_str(), i + 1 < points.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    parse(argc, argv, &o);
    std::string why;
    if (!toolutil::bitsFit(o.beginBit, o.endBit, o.sweep.keyTypes, &why) ||
        !toolutil::distributionFits(o.dist, o.sweep.keyTypes, &why)) {
        std::fprintf(stderr, "cub-bench: %s\n", why.c_str());
        return 2;
    }

    int deviceCount = 0;
    CUDA_CHECK(cudaGetDeviceCount(&deviceCount));
    if (o.device >= deviceCount) {
        std::fprintf(stderr, "cub-bench: --device %d: no such CUDA device (%d present)\n", o.device, deviceCount);
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(o.device));
    Environment env = describe(o.device);
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    std::printf("cub-bench: %s | %s | %s | %s order, %s keys, %s, %u timed sorts per point after %.1f s "
                "warm-up, %s launches\n",
                env.device.c_str(), env.driver.c_str(), env.runtime.c_str(), o.descending ? "desc" : "asc",
                hostdata::toString(o.dist).c_str(), bitsLabel(o).c_str(), o.sweep.reps, o.sweep.warmup,
                o.graph ? "graph" : "stream");
    std::printf("%-4s %-5s %11s %9s %9s %9s %8s %9s %8s\n", "key", "value", "count", "median", "min", "max", "Gkeys/s",
                "temp MiB", "ok");

    std::vector<Point> points;
    bool allOk = true;
    for (VksortKeyType key : o.sweep.keyTypes) {
        for (VksortValueType value : o.sweep.valueTypes) {
            // Drop the counts whose buffers do not fit in free memory (keeping a margin for CUB's
            // temporary storage and the context), rather than failing the whole sweep.
            size_t freeBytes = 0, totalBytes = 0;
            CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
            std::vector<uint32_t> counts;
            for (uint32_t c : o.sweep.counts) {
                size_t need = Buffers::bytesFor(key, value, c);
                if (need + need / 8 + (size_t(256) << 20) <= freeBytes) counts.push_back(c);
                else std::printf("%-4s %-5s %11u skipped: needs %.1f GiB, %.1f GiB free\n", toString(key), toString(value),
                                 c, need / double(1u << 30), freeBytes / double(1u << 30));
            }
            if (counts.empty()) continue;
            Buffers buffers(key, value, counts.back());
            for (uint32_t count : counts) {
                hostdata::Data in = hostdata::generate(key, value, count, o.dist, o.seed);
                CUDA_CHECK(cudaMemcpy(buffers.pristineKeys, in.keys.data(), in.keys.size(), cudaMemcpyHostToDevice));
                if (!in.values.empty()) {
                    CUDA_CHECK(cudaMemcpy(buffers.pristineValues, in.values.data(), in.values.size(), cudaMemcpyHostToDevice));
                }
                Point p{key, value, count, {}, 0, ""};
                allOk = dispatchPoint(o, buffers, in, stream, &p) && allOk;
                points.push_back(p);
                double rate = double(count) / (p.ms.median * 1e-3);
                std::printf("%-4s %-5s %11u %9.4f %9.4f %9.4f %8.3f %9.1f %8s\n", toString(key), toString(value), count,
                            p.ms.median, p.ms.min, p.ms.max, rate * 1e-9, p.tempBytes / double(1u << 20),
                            p.verified.c_str());
                std::fflush(stdout);
            }
        }
    }

    if (!o.sweep.jsonPath.empty()) {
        FILE* f = o.sweep.jsonPath == "-" ? stdout : std::fopen(o.sweep.jsonPath.c_str(), "w");
        if (f == nullptr) {
            std::fprintf(stderr, "cub-bench: cannot write %s\n", o.sweep.jsonPath.c_str());
            return 2;
        }
        writeJson(f, env, points, o);
        if (f != stdout && std::fclose(f) != 0) {
            std::fprintf(stderr, "cub-bench: error writing %s\n", o.sweep.jsonPath.c_str());
            return 2;
        }
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    if (!allOk) std::printf("cub-bench: verification FAILED (details on stderr)\n");
    return allOk ? 0 : 1;
}
