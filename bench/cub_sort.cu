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
//
// --segments instead times segmented sorts, the baseline for a segmented sort in vksort: for each
// layout of segments (their number and sizes), cub::DeviceSegmentedSort (stable),
// cub::DeviceSegmentedRadixSort, and one cub::DeviceRadixSort of all the keys, timed as above.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/version.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "hostdata.hpp"
#include "segments.hpp"
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

// ---- Segment layouts (--segments) --------------------------------------------------------------

// Layouts, their offsets and the per-segment verdict are the harness's (harness/segments), so that
// sort-test --segments draws the same segments from the same --seed.
using segmented::SegmentLayout;

// CUB's segmented radix sort counts keys and segments in int: no layout may hold more.
constexpr uint64_t kMaxSegmentKeys = INT32_MAX;

// Whether CUB's segmented sorts can take a parsed layout. False with the reason in `why`.
bool cubTakes(const SegmentLayout& l, std::string* why) {
    if (l.segments > kMaxSegmentKeys) {
        *why = l.text + " has " + std::to_string(l.segments) +
               " segments, more than CUB's segmented sorts take (2^31 - 1)";
        return false;
    }
    if (segmented::leastKeys(l) > kMaxSegmentKeys) {
        *why = l.text + " holds at least " + std::to_string(segmented::leastKeys(l)) +
               " keys, more than CUB's segmented sorts take (2^31 - 1)";
        return false;
    }
    return true;
}

// ---- Options -----------------------------------------------------------------------------------

struct Options {
    int device = 0;
    toolutil::SweepOptions sweep; // counts, keys, values, reps, warmup, verify-max, json: as sort-test's
    bool countsGiven = false;     // --counts was on the command line (the sweep fills in defaults)
    bool descending = false;
    uint32_t beginBit = 0, endBit = 0; // endBit 0: all bits of the key type, as in sort-test
    hostdata::Distribution dist;       // --dist, as sort-test's
    uint64_t seed = 1;
    bool graph = false;
    std::vector<SegmentLayout> segments; // --segments: segmented sorts of these layouts instead of the counts
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
        "  --segments LIST           segmented sorts instead of --counts, one point per layout, each\n"
        "                            timed as cub::DeviceSegmentedSort (stable), DeviceSegmentedRadixSort\n"
        "                            and one DeviceRadixSort of all the keys. A layout is NxS (N\n"
        "                            segments of S keys), N@A-B (sizes uniform in [A, B]; 0 allowed:\n"
        "                            empty segments) or N~M (log-normal sizes, sigma 1, mean about M),\n"
        "                            sizes drawn from --seed as sort-test --segments draws them; e.g.\n"
        "                            1000x2000,2x2^22,2^18@1-32,300@0-40,10000~840. Integer keys, ascending,\n"
        "                            all bits; not with --counts or --graph\n"
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
    if (option == "--segments") {
        return std::string(segmented::layoutsTakes()) + "; for CUB at most 2^31 - 1 keys and segments in all";
    }
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
        if (a == "--segments") {
            const std::vector<std::string> items = toolutil::split(args.value());
            if (items.empty()) return Parsed::Invalid;
            for (const std::string& item : items) {
                SegmentLayout layout;
                if (!segmented::parseLayout(item, &layout, &why) || !cubTakes(layout, &why)) {
                    return validIf(false, args, why);
                }
                o->segments.push_back(layout);
            }
            return Parsed::Ok;
        }
        return Parsed::NotMine;
    };
    toolutil::parseCommandLine("cub-bench", argc, argv, &o->sweep, own, usage, takes);
    o->countsGiven = !o->sweep.counts.empty();
    toolutil::finishSweep(&o->sweep, VKSORT_KEY_TYPE_UINT32, VKSORT_VALUE_TYPE_NONE);
}

// Whether the other options go with --segments. False with a message naming the option.
bool segmentsFit(const Options& o, std::string* why) {
    if (o.segments.empty()) return true;
    if (o.countsGiven) {
        *why = "--segments and --counts do not go together: each layout is one point, of as many keys as its "
               "segments hold";
        return false;
    }
    if (o.graph) {
        *why = "--segments and --graph do not go together: CUB's segmented sort copies its size classes to the "
               "host between kernels, which a CUDA graph cannot capture";
        return false;
    }
    if (o.descending) {
        *why = "--segments sorts in ascending order only (not --order desc)";
        return false;
    }
    if (o.beginBit != 0 || o.endBit != 0) {
        *why = "--segments sorts by all the key's bits (not --bits): cub::DeviceSegmentedSort takes no bit range";
        return false;
    }
    for (VksortKeyType k : o.sweep.keyTypes) {
        if (!isFloat(k)) continue;
        *why = std::string("--segments takes integer keys (--keys u32, i32, u64, i64), not ") + toString(k) +
               ": cub::DeviceSegmentedSort orders small segments with operator<, which gives NaNs no place, so "
               "its result has no order to verify";
        return false;
    }
    return true;
}

// "all bits", or "bits BEGIN:END" (END "key width" where 0 and several widths are swept).
std::string bitsLabel(const Options& o) {
    if (o.beginBit == 0 && o.endBit == 0) return "all bits";
    return "bits " + std::to_string(o.beginBit) + ":" + (o.endBit != 0 ? std::to_string(o.endBit) : "key width");
}

// ---- Host data ---------------------------------------------------------------------------------

// std::stable_sort of the input under hostdata::sortKey with CUB's treatment of zeros (CUB's
// documented key transformations are vksort's except there; keyorder.hpp), compared with the
// device's result by segmented::verify (keys bit for bit, values or the argsort's permutation
// exactly). With segment offsets (--segments), each segment [offsets[s], offsets[s + 1]) is
// stably sorted on its own; without, the whole input. Returns "" when they match.
std::string verifyAs(const hostdata::Data& in, bool descending, uint32_t beginBit, uint32_t endBit,
                     keyorder::Zeros zeros, const std::vector<uint8_t>& outKeys,
                     const std::vector<uint8_t>& outValues, const std::vector<uint32_t>& offsets) {
    const VksortOrder order = descending ? VKSORT_ORDER_DESCENDING : VKSORT_ORDER_ASCENDING;
    const std::vector<uint32_t> whole = {0, in.count};
    // The argsort's values are 0..n-1 over the whole array (iotaKernel), segments or not.
    hostdata::Verdict verdict = segmented::verify(in, offsets.empty() ? whole : offsets, order, beginBit, endBit,
                                                  outKeys.data(), outValues.empty() ? nullptr : outValues.data(),
                                                  segmented::IndexBase::Array, zeros);
    return verdict.ok ? "" : verdict.detail;
}

// verifyAs under CUB's order; where its two treatments of zeros differ (keyorder::Zeros), either
// passes.
std::string verify(const hostdata::Data& in, bool descending, uint32_t beginBit, uint32_t endBit,
                   const std::vector<uint8_t>& outKeys, const std::vector<uint8_t>& outValues,
                   const std::vector<uint32_t>& offsets = {}) {
    std::string failure =
        verifyAs(in, descending, beginBit, endBit, keyorder::Zeros::Equal, outKeys, outValues, offsets);
    bool partial = beginBit != 0 || (endBit != 0 && endBit != keyBits(in.keyType));
    if (!failure.empty() && descending && isFloat(in.keyType) && partial) {
        if (verifyAs(in, descending, beginBit, endBit, keyorder::Zeros::EqualOnesweep, outKeys, outValues, offsets)
                .empty()) {
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

// A DoubleBuffer over buffers 0 and 1 of a pair, selector 0: where restoreInput() puts the input.
// Fresh ones for every run: CUB flips the selector to wherever the result landed.
template <typename K>
cub::DoubleBuffer<K> doubleBuffer(void* const* pair) {
    if constexpr (std::is_same_v<K, cub::NullType>) return cub::DoubleBuffer<K>();
    else return cub::DoubleBuffer<K>(static_cast<K*>(pair[0]), static_cast<K*>(pair[1]));
}

// Untimed: put the input back where the sort reads it (buffer 0 of each pair).
template <typename K, typename V>
void restoreInput(Buffers& b, const hostdata::Data& in, cudaStream_t stream) {
    const uint32_t n = in.count;
    CUDA_CHECK(cudaMemcpyAsync(b.keys[0], b.pristineKeys, size_t(n) * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if constexpr (!std::is_same_v<V, cub::NullType>) {
        if (in.valueType == VKSORT_VALUE_TYPE_INDEX) {
            iotaKernel<<<std::min<uint32_t>(n / 256 + 1, 4096), 256, 0, stream>>>(static_cast<uint32_t*>(b.values[0]), n);
            CUDA_CHECK(cudaGetLastError());
        } else {
            CUDA_CHECK(cudaMemcpyAsync(b.values[0], b.pristineValues, size_t(n) * sizeof(V), cudaMemcpyDeviceToDevice,
                                       stream));
        }
    }
}

// Which buffer of each pair holds a sort's result (DoubleBuffer::selector).
struct Selectors {
    int keys = 0, values = 0;
};

// One sort through the path that is timed (restore(), then sort(), which returns the Selectors),
// its result read back. The alternate buffers are poisoned first: they still hold an earlier
// point's sorted output, which an element the sort failed to write could otherwise pass for.
// (Buffer 0 holds the input, so a result that lands there after an even number of passes is
// checked against unsorted leftovers instead.)
template <typename K, typename V, typename Restore, typename Sort>
void sortAndRead(Buffers& b, uint32_t n, cudaStream_t stream, const Restore& restore, const Sort& sort,
                 std::vector<uint8_t>* outKeys, std::vector<uint8_t>* outValues) {
    constexpr bool kPairs = !std::is_same_v<V, cub::NullType>;
    CUDA_CHECK(cudaMemsetAsync(b.keys[1], 0xA5, size_t(n) * sizeof(K), stream));
    if constexpr (kPairs) CUDA_CHECK(cudaMemsetAsync(b.values[1], 0xA5, size_t(n) * sizeof(V), stream));
    restore();
    const Selectors result = sort();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaGetLastError());
    outKeys->resize(size_t(n) * sizeof(K));
    CUDA_CHECK(cudaMemcpy(outKeys->data(), b.keys[result.keys], outKeys->size(), cudaMemcpyDeviceToHost));
    outValues->clear();
    if constexpr (kPairs) {
        outValues->resize(size_t(n) * sizeof(V));
        CUDA_CHECK(cudaMemcpy(outValues->data(), b.values[result.values], outValues->size(), cudaMemcpyDeviceToHost));
    }
}

// The warm-up and the timed runs of one point: restore() and sort() as above.
template <typename Restore, typename Sort>
Stats timeSorts(const Options& o, cudaStream_t stream, const Restore& restore, const Sort& sort) {
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
    return statsOf(samples);
}

// What timeCall() measures of one point.
struct Measured {
    Stats ms;
    size_t tempBytes = 0;
    std::string verified; // "yes", "no" or "skipped", as in sort-test
};

struct Point : Measured {
    VksortKeyType key{};
    VksortValueType value{};
    uint32_t count = 0;
};

// Sorts `in` (already uploaded to the pristine buffers) with one CUB call and times it:
// `call(temp, tempBytes, keys, values)` as cubSort(), the temp-storage query when temp is null.
// With `graph` the call is captured once (after the DoubleBuffers are set up exactly as every later
// run's) and replayed, so launches cost one graph launch. One run, read back, goes to
// `check(keys, values)` (the failure, or empty) up to --verify-max keys; `what` names the point in
// a failure's message. Returns false only for a verification failure; CUDA errors end the program.
template <typename K, typename V, typename Call, typename Check>
bool timeCall(const Options& o, Buffers& b, const hostdata::Data& in, cudaStream_t stream, bool graph,
              const Call& call, const Check& check, const std::string& what, Measured* m) {
    constexpr bool kPairs = !std::is_same_v<V, cub::NullType>;
    auto restore = [&]() { restoreInput<K, V>(b, in, stream); };

    size_t tempBytes = 0;
    {
        auto dk = doubleBuffer<K>(b.keys);
        auto dv = doubleBuffer<V>(b.values);
        CUDA_CHECK(call(nullptr, tempBytes, dk, dv));
    }
    void* temp = nullptr;
    CUDA_CHECK(cudaMalloc(&temp, std::max<size_t>(tempBytes, 1)));
    m->tempBytes = tempBytes;

    // `captured` says which buffer of each pair holds a replayed graph's result.
    cudaGraphExec_t graphExec = nullptr;
    Selectors captured;
    if (graph) {
        auto dk = doubleBuffer<K>(b.keys);
        auto dv = doubleBuffer<V>(b.values);
        cudaGraph_t captureGraph = nullptr;
        // Relaxed: CUB queries the device and its kernels' attributes while it dispatches, which
        // the stricter capture modes may refuse; nothing else runs on this thread meanwhile.
        CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
        cudaError_t sortStatus = call(temp, tempBytes, dk, dv);
        cudaError_t captureStatus = cudaStreamEndCapture(stream, &captureGraph);
        CUDA_CHECK(sortStatus);
        CUDA_CHECK(captureStatus);
        CUDA_CHECK(cudaGraphInstantiate(&graphExec, captureGraph, 0));
        CUDA_CHECK(cudaGraphDestroy(captureGraph));
        captured.keys = dk.selector;
        if constexpr (kPairs) captured.values = dv.selector;
    }
    auto sort = [&]() {
        if (graphExec != nullptr) {
            CUDA_CHECK(cudaGraphLaunch(graphExec, stream));
            return captured;
        }
        auto dk = doubleBuffer<K>(b.keys);
        auto dv = doubleBuffer<V>(b.values);
        CUDA_CHECK(call(temp, tempBytes, dk, dv));
        Selectors result;
        result.keys = dk.selector;
        if constexpr (kPairs) result.values = dv.selector;
        return result;
    };

    // Verify one sort through the same path that is timed.
    bool ok = true;
    if (in.count <= o.sweep.verifyMax) {
        std::vector<uint8_t> outKeys, outValues;
        sortAndRead<K, V>(b, in.count, stream, restore, sort, &outKeys, &outValues);
        std::string failure = check(outKeys, outValues);
        ok = failure.empty();
        m->verified = ok ? "yes" : "no";
        if (!ok) std::fprintf(stderr, "cub-bench: %s: %s\n", what.c_str(), failure.c_str());
    } else {
        m->verified = "skipped";
    }

    m->ms = timeSorts(o, stream, restore, sort);

    if (graphExec != nullptr) CUDA_CHECK(cudaGraphExecDestroy(graphExec));
    CUDA_CHECK(cudaFree(temp));
    return ok;
}

// A type, as a value: how withTypes() hands the key and value types to a generic lambda.
template <typename T>
struct TypeTag {
    using type = T;
};

// Calls run(TypeTag<K>{}, TypeTag<V>{}) with the C++ types of `in`'s keys and values (V is
// cub::NullType without values: CUB's keys-only entry points) and returns what it returns.
template <typename Run>
bool withTypes(const hostdata::Data& in, const Run& run) {
    auto withValue = [&](auto key) {
        switch (in.valueType) {
        case VKSORT_VALUE_TYPE_NONE: return run(key, TypeTag<cub::NullType>{});
        case VKSORT_VALUE_TYPE_UINT32:
        case VKSORT_VALUE_TYPE_INDEX: return run(key, TypeTag<uint32_t>{});
        case VKSORT_VALUE_TYPE_UINT64: return run(key, TypeTag<uint64_t>{});
        default: return false; // parse() admits only the four kinds
        }
    };
    switch (in.keyType) {
    case VKSORT_KEY_TYPE_UINT32: return withValue(TypeTag<uint32_t>{});
    case VKSORT_KEY_TYPE_INT32: return withValue(TypeTag<int32_t>{});
    case VKSORT_KEY_TYPE_FLOAT32: return withValue(TypeTag<float>{});
    case VKSORT_KEY_TYPE_UINT64: return withValue(TypeTag<uint64_t>{});
    case VKSORT_KEY_TYPE_INT64: return withValue(TypeTag<int64_t>{});
    case VKSORT_KEY_TYPE_FLOAT64: return withValue(TypeTag<double>{});
    default: return false; // parse() admits only the six types
    }
}

// Sorts `in` (already uploaded to the pristine buffers) with cub::DeviceRadixSort and times it.
// Returns false only for a verification failure.
bool runPoint(const Options& o, Buffers& b, const hostdata::Data& in, cudaStream_t stream, Point* p) {
    return withTypes(in, [&](auto key, auto value) {
        using K = typename decltype(key)::type;
        using V = typename decltype(value)::type;
        const int beginBit = int(o.beginBit);
        const int endBit = o.endBit == 0 ? int(sizeof(K) * 8) : int(o.endBit);
        auto call = [&](void* temp, size_t& tempBytes, cub::DoubleBuffer<K>& dk, cub::DoubleBuffer<V>& dv) {
            return cubSort<K, V>(temp, tempBytes, dk, dv, in.count, beginBit, endBit, o.descending, stream);
        };
        auto check = [&](const std::vector<uint8_t>& keys, const std::vector<uint8_t>& values) {
            return verify(in, o.descending, o.beginBit, o.endBit, keys, values);
        };
        const std::string what = std::string(toString(in.keyType)) + " keys, " + toString(in.valueType) + " values, " +
                                 std::to_string(in.count) + " keys";
        return timeCall<K, V>(o, b, in, stream, o.graph, call, check, what, p);
    });
}

// ---- Device side: segmented sorts (--segments) -------------------------------------------------

// What --segments times at every layout, in this order.
enum class Method {
    SegmentedSort,      // cub::DeviceSegmentedSort::StableSortPairs (StableSortKeys without values)
    SegmentedRadixSort, // cub::DeviceSegmentedRadixSort::SortPairs (SortKeys)
    RadixSortAll,       // cub::DeviceRadixSort::SortPairs (SortKeys) of all the keys as one array
};
constexpr Method kMethods[] = {Method::SegmentedSort, Method::SegmentedRadixSort, Method::RadixSortAll};

const char* methodName(Method m) {
    switch (m) {
    case Method::SegmentedSort: return "segmented_sort";
    case Method::SegmentedRadixSort: return "segmented_radix_sort";
    case Method::RadixSortAll: return "radix_sort_all";
    }
    return "";
}

// One CUB call of `method`, ascending, all bits: the temp-storage query when temp is null, else
// the sort. Segment s is keys [offsets[s], offsets[s + 1]); RadixSortAll ignores the segments.
template <typename K, typename V>
cudaError_t cubSegmentedSort(Method method, void* temp, size_t& tempBytes, cub::DoubleBuffer<K>& keys,
                             cub::DoubleBuffer<V>& values, uint32_t count, uint32_t segments,
                             const uint32_t* offsets, cudaStream_t stream) {
    constexpr bool kPairs = !std::is_same_v<V, cub::NullType>;
    constexpr int kEndBit = int(sizeof(K) * 8);
    switch (method) {
    case Method::SegmentedSort:
        if constexpr (kPairs) {
            return cub::DeviceSegmentedSort::StableSortPairs(temp, tempBytes, keys, values, count, segments, offsets,
                                                             offsets + 1, stream);
        } else {
            return cub::DeviceSegmentedSort::StableSortKeys(temp, tempBytes, keys, count, segments, offsets,
                                                            offsets + 1, stream);
        }
    case Method::SegmentedRadixSort:
        // int counts: parseLayout() and segmentOffsets() keep both within 2^31 - 1.
        if constexpr (kPairs) {
            return cub::DeviceSegmentedRadixSort::SortPairs(temp, tempBytes, keys, values, int(count), int(segments),
                                                            offsets, offsets + 1, 0, kEndBit, stream);
        } else {
            return cub::DeviceSegmentedRadixSort::SortKeys(temp, tempBytes, keys, int(count), int(segments), offsets,
                                                           offsets + 1, 0, kEndBit, stream);
        }
    case Method::RadixSortAll: return cubSort<K, V>(temp, tempBytes, keys, values, count, 0, kEndBit, false, stream);
    }
    return cudaErrorInvalidValue;
}

struct SegmentPoint : Measured {
    VksortKeyType key{};
    VksortValueType value{};
    std::string layout; // as given
    uint32_t segments = 0;
    uint32_t count = 0; // keys in all the segments
    Method method{};
};

// Sorts `in` (uploaded to the pristine buffers; its segments' offsets, host copy `offsets`, in
// `deviceOffsets`) with `method` and times it, as runPoint() does, through the stream (CUB's
// segmented sort waits for its size classes on the host mid-call: no graph). Returns false only
// for a verification failure.
bool runSegmentPoint(const Options& o, Buffers& b, const hostdata::Data& in, const std::vector<uint32_t>& offsets,
                     const uint32_t* deviceOffsets, Method method, cudaStream_t stream, SegmentPoint* p) {
    return withTypes(in, [&](auto key, auto value) {
        using K = typename decltype(key)::type;
        using V = typename decltype(value)::type;
        if constexpr (std::is_floating_point_v<K>) {
            return false; // segmentsFit() admits only the integer types
        } else {
            const uint32_t segments = uint32_t(offsets.size() - 1);
            auto call = [&](void* temp, size_t& tempBytes, cub::DoubleBuffer<K>& dk, cub::DoubleBuffer<V>& dv) {
                return cubSegmentedSort<K, V>(method, temp, tempBytes, dk, dv, in.count, segments, deviceOffsets,
                                              stream);
            };
            // Each segment against its own std::stable_sort; the one sort of all the keys against
            // that of the whole array.
            auto check = [&](const std::vector<uint8_t>& keys, const std::vector<uint8_t>& values) {
                return method == Method::RadixSortAll ? verify(in, false, 0, 0, keys, values)
                                                      : verify(in, false, 0, 0, keys, values, offsets);
            };
            const std::string what = std::string(methodName(method)) + ", " + toString(in.keyType) + " keys, " +
                                     toString(in.valueType) + " values, segments " + p->layout;
            return timeCall<K, V>(o, b, in, stream, false, call, check, what, p);
        }
    });
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

// The JSON's opening brace and the run's fields, up to its results.
void writeJsonHeader(FILE* f, const Environment& env, const Options& o) {
    std::fprintf(f,
                 "{\n  \"library\": \"cub\",\n  \"device\": \"%s\",\n  \"driver\": \"%s\",\n  \"runtime\": \"%s\",\n"
                 "  \"order\": \"%s\",\n  \"distribution\": \"%s\",\n  \"begin_bit\": %u,\n  \"end_bit\": %u,\n"
                 "  \"launch\": \"%s\",\n  \"reps\": %u,\n  \"warmup_s\": %.3f,\n  \"seed\": %llu,\n",
                 jsonEscape(env.device).c_str(), jsonEscape(env.driver).c_str(), jsonEscape(env.runtime).c_str(),
                 o.descending ? "desc" : "asc", jsonEscape(hostdata::toString(o.dist)).c_str(), o.beginBit, o.endBit, o.graph ? "graph" : "stream", o.sweep.reps, o.sweep.warmup,
                 static_cast<unsigned long long>(o.seed));
}

void writeJson(FILE* f, const Environment& env, const std::vector<Point>& points, const Options& o) {
    writeJsonHeader(f, env, o);
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

// Keys per second at the median; 0 for an empty point.
double keysPerSecond(uint32_t count, const Stats& ms) { return ms.median > 0 ? double(count) / (ms.median * 1e-3) : 0; }

// --segments' JSON: the same header, "mode": "segments", one result per layout and method.
void writeSegmentsJson(FILE* f, const Environment& env, const std::vector<SegmentPoint>& points, const Options& o) {
    writeJsonHeader(f, env, o);
    std::fprintf(f, "  \"mode\": \"segments\",\n  \"results\": [\n");
    for (size_t i = 0; i < points.size(); ++i) {
        const SegmentPoint& p = points[i];
        std::fprintf(f,
                     "    {\"library\": \"cub\", \"key\": \"%s\", \"value\": \"%s\", \"dist\": \"%s\", "
                     "\"segments_layout\": \"%s\", \"segments\": %u, \"count\": %u, \"method\": \"%s\", "
                     "\"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, \"keys_per_s\": %.6e, "
                     "\"temp_storage_bytes\": %zu, \"verified\": \"%s\"}%s\n",
                     toString(p.key), toString(p.value), jsonEscape(hostdata::toString(o.dist)).c_str(),
                     jsonEscape(p.layout).c_str(), p.segments, p.count, methodName(p.method), p.ms.median, p.ms.min,
                     p.ms.max, keysPerSecond(p.count, p.ms), p.tempBytes, p.verified.c_str(),
                     i + 1 < points.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
}

// Writes --json FILE (when given) with `write`. Returns 0, or 2 when the file cannot be written.
template <typename Write>
int writeJsonFile(const Options& o, const Write& write) {
    if (o.sweep.jsonPath.empty()) return 0;
    FILE* f = o.sweep.jsonPath == "-" ? stdout : std::fopen(o.sweep.jsonPath.c_str(), "w");
    if (f == nullptr) {
        std::fprintf(stderr, "cub-bench: cannot write %s\n", o.sweep.jsonPath.c_str());
        return 2;
    }
    write(f);
    if (f != stdout && std::fclose(f) != 0) {
        std::fprintf(stderr, "cub-bench: error writing %s\n", o.sweep.jsonPath.c_str());
        return 2;
    }
    return 0;
}

// --segments: every layout for every key type and value kind, each sorted by every Method.
// `layoutOffsets` holds each layout's segment offsets. Returns the exit status.
int runSegments(const Options& o, const std::vector<std::vector<uint32_t>>& layoutOffsets, const Environment& env,
                cudaStream_t stream) {
    std::printf("cub-bench: %s | %s | %s | segmented sorts, asc order, %s keys, all bits, %u timed sorts per point "
                "and method after %.1f s warm-up, stream launches\n",
                env.device.c_str(), env.driver.c_str(), env.runtime.c_str(), hostdata::toString(o.dist).c_str(),
                o.sweep.reps, o.sweep.warmup);
    std::printf("%-4s %-5s %-18s %9s %11s %-20s %9s %9s %9s %8s %9s %8s\n", "key", "value", "layout", "segments",
                "keys", "method", "median", "min", "max", "Gkeys/s", "temp MiB", "ok");

    std::vector<SegmentPoint> points;
    bool allOk = true;
    for (VksortKeyType key : o.sweep.keyTypes) {
        for (VksortValueType value : o.sweep.valueTypes) {
            // Layouts whose buffers do not fit in free memory are skipped, as counts are.
            size_t freeBytes = 0, totalBytes = 0;
            CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
            std::vector<size_t> fitting;
            uint32_t maxCount = 1;
            size_t maxOffsets = 0;
            for (size_t i = 0; i < o.segments.size(); ++i) {
                const std::vector<uint32_t>& offsets = layoutOffsets[i];
                const uint32_t count = offsets.back();
                size_t need = Buffers::bytesFor(key, value, count) + offsets.size() * sizeof(uint32_t);
                if (need + need / 8 + (size_t(256) << 20) <= freeBytes) {
                    fitting.push_back(i);
                    maxCount = std::max(maxCount, count);
                    maxOffsets = std::max(maxOffsets, offsets.size());
                } else {
                    std::printf("%-4s %-5s %-18s %9zu %11u skipped: needs %.1f GiB, %.1f GiB free\n", toString(key),
                                toString(value), o.segments[i].text.c_str(), offsets.size() - 1, count,
                                double(need) / double(1u << 30), double(freeBytes) / double(1u << 30));
                }
            }
            if (fitting.empty()) continue;
            Buffers buffers(key, value, maxCount);
            uint32_t* deviceOffsets = nullptr;
            CUDA_CHECK(cudaMalloc(&deviceOffsets, maxOffsets * sizeof(uint32_t)));
            for (size_t i : fitting) {
                const SegmentLayout& layout = o.segments[i];
                const std::vector<uint32_t>& offsets = layoutOffsets[i];
                const uint32_t count = offsets.back(), segments = uint32_t(offsets.size() - 1);
                // The keys a --counts point of the same count would sort.
                hostdata::Data in = hostdata::generate(key, value, count, o.dist, o.seed);
                CUDA_CHECK(cudaMemcpy(buffers.pristineKeys, in.keys.data(), in.keys.size(), cudaMemcpyHostToDevice));
                if (!in.values.empty()) {
                    CUDA_CHECK(cudaMemcpy(buffers.pristineValues, in.values.data(), in.values.size(), cudaMemcpyHostToDevice));
                }
                CUDA_CHECK(cudaMemcpy(deviceOffsets, offsets.data(), offsets.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice));
                for (Method method : kMethods) {
                    SegmentPoint p;
                    p.key = key;
                    p.value = value;
                    p.layout = layout.text;
                    p.segments = segments;
                    p.count = count;
                    p.method = method;
                    allOk = runSegmentPoint(o, buffers, in, offsets, deviceOffsets, method, stream, &p) && allOk;
                    points.push_back(p);
                    std::printf("%-4s %-5s %-18s %9u %11u %-20s %9.4f %9.4f %9.4f %8.3f %9.1f %8s\n", toString(key),
                                toString(value), layout.text.c_str(), segments, count, methodName(method), p.ms.median,
                                p.ms.min, p.ms.max, keysPerSecond(count, p.ms) * 1e-9, double(p.tempBytes) / double(1u << 20),
                                p.verified.c_str());
                    std::fflush(stdout);
                }
            }
            CUDA_CHECK(cudaFree(deviceOffsets));
        }
    }

    int status = writeJsonFile(o, [&](FILE* f) { writeSegmentsJson(f, env, points, o); });
    if (status != 0) return status;
    if (!allOk) std::printf("cub-bench: verification FAILED (details on stderr)\n");
    return allOk ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    parse(argc, argv, &o);
    std::string why;
    if (!toolutil::bitsFit(o.beginBit, o.endBit, o.sweep.keyTypes, &why) ||
        !toolutil::distributionFits(o.dist, o.sweep.keyTypes, &why) || !segmentsFit(o, &why)) {
        std::fprintf(stderr, "cub-bench: %s\n", why.c_str());
        return 2;
    }
    // The layouts' segments, drawn before any CUDA call: a layout too large is bad usage.
    std::vector<std::vector<uint32_t>> layoutOffsets(o.segments.size());
    for (size_t i = 0; i < o.segments.size(); ++i) {
        if (segmented::segmentOffsets(o.segments[i], o.seed, &layoutOffsets[i], kMaxSegmentKeys)) continue;
        std::fprintf(stderr,
                     "cub-bench: --segments %s: its segments (--seed %llu) hold more than 2^31 - 1 keys, more than "
                     "CUB's segmented sorts take\n",
                     o.segments[i].text.c_str(), static_cast<unsigned long long>(o.seed));
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
    if (!o.segments.empty()) {
        int status = runSegments(o, layoutOffsets, env, stream);
        CUDA_CHECK(cudaStreamDestroy(stream));
        return status;
    }

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
                Point p;
                p.key = key;
                p.value = value;
                p.count = count;
                allOk = runPoint(o, buffers, in, stream, &p) && allOk;
                points.push_back(p);
                double rate = double(count) / (p.ms.median * 1e-3);
                std::printf("%-4s %-5s %11u %9.4f %9.4f %9.4f %8.3f %9.1f %8s\n", toString(key), toString(value), count,
                            p.ms.median, p.ms.min, p.ms.max, rate * 1e-9, p.tempBytes / double(1u << 20),
                            p.verified.c_str());
                std::fflush(stdout);
            }
        }
    }

    int status = writeJsonFile(o, [&](FILE* f) { writeJson(f, env, points, o); });
    if (status != 0) return status;
    CUDA_CHECK(cudaStreamDestroy(stream));
    if (!allOk) std::printf("cub-bench: verification FAILED (details on stderr)\n");
    return allOk ? 0 : 1;
}
