// SPDX-License-Identifier: MIT
// vksortGetSorterPipelines: the sorter's pipelines as profilers and tools see them, and
// VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT, whose statistics tools/pipeline-stats reports.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "objects.hpp"
#include "support.hpp"
#include "tuning.hpp"

namespace {

// Every pipeline of `sorter`, checked: the count query, VK_INCOMPLETE below it, unique names and
// pipelines, the same list on every call; `skip`: a sorter that skips constant digits.
std::vector<VksortPipelineInfo> checkedPipelines(VksortSorter sorter, bool skip = false) {
    uint32_t count = 0;
    REQUIRE(vksortGetSorterPipelines(sorter, &count, nullptr) == VK_SUCCESS);
    REQUIRE(count >= 2);

    std::vector<VksortPipelineInfo> all(count + 2, VksortPipelineInfo{nullptr, VK_NULL_HANDLE});
    uint32_t written = count + 2; // more room than needed: VK_SUCCESS and the true count
    REQUIRE(vksortGetSorterPipelines(sorter, &written, all.data()) == VK_SUCCESS);
    REQUIRE(written == count);
    CHECK(all[count].name == nullptr); // nothing written past the count
    CHECK(all[count].pipeline == VK_NULL_HANDLE);
    all.resize(count);

    std::set<std::string> names;
    std::set<VkPipeline> pipelines;
    for (const VksortPipelineInfo& p : all) {
        REQUIRE(p.name != nullptr);
        CHECK(p.pipeline != VK_NULL_HANDLE);
        names.insert(p.name);
        pipelines.insert(p.pipeline);
    }
    CHECK(names.size() == count);
    CHECK(pipelines.size() == count);
    // SPIR-V variant names: every variant of every row of the kernel table (src/kernels.hpp), and
    // in a skipping sorter "_deciding" after those of the rows with a deciding twin.
    std::set<std::string> variants;
    for (uint32_t kernel = 0; kernel < vksort::kKernelCount; ++kernel) {
        for (uint32_t k = 0; k < 2; ++k) {
            for (uint32_t v = 0; v < 3; ++v) {
                for (bool shuffle : {false, true}) {
                    const std::string name = vksort::variantName(vksort::Kernel(kernel), k, v, shuffle, skip ? "_skip" : "");
                    variants.insert(name);
                    if (skip && vksort::kKernels[kernel].secondPipeline) variants.insert(name + "_deciding");
                }
            }
        }
    }
    CHECK(variants.count(skip ? "scan_skip" : "scan") == 1); // the table's names are the ones users see
    CHECK(variants.count(skip ? "reorder_k2_v1_skip" : "reorder_k2_v1") == 1);
    CHECK(variants.count("single_k1_v2_shuffle") == 1);
    for (const std::string& name : names) {
        INFO(name);
        CHECK(variants.count(name) == 1);
    }
    // The default sorter sorts 32-bit keys alone (tile counts, scan, reorder), the single-workgroup
    // sort with the shuffle variant where the device has subgroup shuffles; a skipping sorter runs
    // the _skip twins, and the first pass's scan step and reorder their deciding pipelines.
    const std::string twin = skip ? "_skip" : "";
    CHECK(names.count("reorder_k1_v0" + twin) == 1);
    CHECK(names.count("tile_counts_k1" + twin) == 1);
    CHECK(names.count("scan" + twin) == 1);
    CHECK(names.count("single_k1_v0") + names.count("single_k1_v0_shuffle") == 1);
    CHECK(names.count("reorder_k1_v0_skip_deciding") == (skip ? 1 : 0));
    CHECK(names.count("scan_skip_deciding") == (skip ? 1 : 0));
    CHECK(names.count("tile_counts_k1_skip_deciding") == 0);
    // A deciding pipeline comes right after the one of the same SPIR-V.
    const std::string deciding = "_deciding";
    for (uint32_t i = 0; i < count; ++i) {
        const std::string name = all[i].name;
        const size_t base = name.size() > deciding.size() ? name.size() - deciding.size() : 0;
        if (base == 0 || name.compare(base, deciding.size(), deciding) != 0) continue;
        INFO(name);
        REQUIRE(i > 0);
        CHECK(std::string(all[i - 1].name) == name.substr(0, base));
    }

    // Too small an array: VK_INCOMPLETE, filled to its capacity with the same entries.
    std::vector<VksortPipelineInfo> some(count - 1, VksortPipelineInfo{nullptr, VK_NULL_HANDLE});
    written = count - 1;
    CHECK(vksortGetSorterPipelines(sorter, &written, some.data()) == VK_INCOMPLETE);
    CHECK(written == count - 1);
    for (uint32_t i = 0; i < count - 1; ++i) {
        CHECK(std::string(some[i].name) == all[i].name);
        CHECK(some[i].pipeline == all[i].pipeline);
    }
    written = 0;
    CHECK(vksortGetSorterPipelines(sorter, &written, some.data()) == VK_INCOMPLETE);
    CHECK(written == 0);
    return all;
}

} // namespace

TEST_CASE("sorter pipelines: count, VK_INCOMPLETE, unique names and pipelines", "[pipelines]") {
    vktest::AssertRecorder recorder;
    // The spy counts every pipeline a sorter asks the driver for: the list names them all.
    const uint32_t before = vktest::commandLog().pipelines;
    VksortSorter spied = vktest::createSorter(vktest::context(), {0, 0, 0, true});
    CHECK(vktest::commandLog().pipelines - before == checkedPipelines(spied).size());
    vksortDestroySorter(spied);
    // Every format (the tests' sorters serve all): the scan, per key width the tile counts,
    // per key and value width the reorder, the single-workgroup sort on its tile and on the main
    // tile, the compare sort and the merge step, and where the tuning row and the device's
    // shared memory give one key width's merge sort chunks sorted by comparisons, their sort;
    // a skipping sorter adds the scan's and each reorder's deciding pipelines.
    const uint32_t chunkSorts = 3 * (uint32_t(vktest::sorter()->merges[0].chunkSort) + uint32_t(vktest::sorter()->merges[1].chunkSort));
    CHECK(checkedPipelines(vktest::sorter()).size() == 33 + chunkSorts);
    vktest::SorterOptions skipping;
    skipping.spy = true;
    skipping.skipPasses = true;
    const uint32_t beforeSkipping = vktest::commandLog().pipelines;
    VksortSorter skipSpied = vktest::createSorter(vktest::context(), skipping);
    const size_t skippingCount = checkedPipelines(skipSpied, true).size();
    CHECK(skippingCount == 40 + chunkSorts);
    CHECK(vktest::commandLog().pipelines - beforeSkipping == skippingCount);
    vksortDestroySorter(skipSpied);
    // A segmented sorter adds, per key and value width, its tiny, short, mid-sized and small
    // segments' sorts and its two reorders, per key width its two tile counts, and the classify
    // step.
    vktest::SorterOptions segmenting;
    segmenting.spy = true;
    segmenting.segmented = true;
    const uint32_t beforeSegmenting = vktest::commandLog().pipelines;
    VksortSorter segmentSpied = vktest::createSorter(vktest::context(), segmenting);
    const size_t segmentingCount = checkedPipelines(segmentSpied).size();
    CHECK(segmentingCount == 33 + chunkSorts + 41);
    CHECK(vktest::commandLog().pipelines - beforeSegmenting == segmentingCount);
    vksortDestroySorter(segmentSpied);

    uint32_t count = 0;
    CHECK(vksortGetSorterPipelines(vktest::sorter(), nullptr, nullptr) == VK_ERROR_VALIDATION_FAILED_EXT);
    CHECK(vksortGetSorterPipelines(VK_NULL_HANDLE, &count, nullptr) == VK_ERROR_VALIDATION_FAILED_EXT);
    CHECK(recorder.messages().size() == 2);
    CHECK(recorder.lastContains("pPipelineCount"));
    vktest::requireCleanValidation();
}

TEST_CASE("pipeline creation on the calling thread alone makes the same pipelines", "[pipelines]") {
    // The default compiles concurrently (the case above); the flag compiles one after another.
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(vktest::context());
    info.flags |= VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT;
    VksortSorter serial = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &serial) == VK_SUCCESS);
    std::vector<VksortPipelineInfo> one = checkedPipelines(serial);
    std::vector<VksortPipelineInfo> concurrent = checkedPipelines(vktest::sorter());
    REQUIRE(one.size() == concurrent.size());
    for (size_t i = 0; i < one.size(); ++i) CHECK(std::string(one[i].name) == concurrent[i].name);
    vksortDestroySorter(serial);
    vktest::requireCleanValidation();
}

// Tagged [statistics] so that ctest runs it alone (tests/CMakeLists.txt, gpu:pipeline-statistics):
// Catch2 v2 has no SKIP, so the line printed on a device without the extension is what makes
// ctest report the case as skipped rather than passed.
TEST_CASE("capture statistics: every listed pipeline has executables with statistics", "[pipelines][statistics]") {
    vkctx::ContextOptions options;
    options.pipelineStatistics = true;
    vkctx::Context ctx(options);
    vktest::VolkScope scope(ctx);
    if (!ctx.pipelineStatisticsEnabled()) {
        // The words ctest matches come first: Catch wraps longer lines at 80 columns.
        WARN("SKIPPED: VK_KHR_pipeline_executable_properties is not offered by "
             << ctx.properties().deviceName << ": nothing to check");
        return;
    }
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx);
    info.flags |= VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT;
    VksortSorter sorter = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &sorter) == VK_SUCCESS);
    for (const VksortPipelineInfo& p : checkedPipelines(sorter)) {
        INFO(p.name);
        VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        pipelineInfo.pipeline = p.pipeline;
        uint32_t executables = 0;
        REQUIRE(vkGetPipelineExecutablePropertiesKHR(ctx.device(), &pipelineInfo, &executables, nullptr) == VK_SUCCESS);
        CHECK(executables >= 1);
        for (uint32_t e = 0; e < executables; ++e) {
            VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
            executable.pipeline = p.pipeline;
            executable.executableIndex = e;
            uint32_t statistics = 0;
            CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device(), &executable, &statistics, nullptr) == VK_SUCCESS);
        }
    }
    vksortDestroySorter(sorter);
    vktest::requireCleanValidation(ctx);
}

// ---- Debug labels --------------------------------------------------------------------------------

namespace debuglog {

// What vksort called of VK_EXT_debug_utils, through a vkGetInstanceProcAddr that hands it these
// wrappers (or, with `hidden`, nothing, as an instance without the extension would).
struct Call {
    enum Kind { Name, Begin, End } kind;
    std::string text;
};
std::vector<Call> calls;
bool hidden = false;
PFN_vkSetDebugUtilsObjectNameEXT realName = nullptr;
PFN_vkCmdBeginDebugUtilsLabelEXT realBegin = nullptr;
PFN_vkCmdEndDebugUtilsLabelEXT realEnd = nullptr;

VKAPI_ATTR VkResult VKAPI_CALL name(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info) {
    calls.push_back({Call::Name, info->pObjectName});
    return realName(device, info);
}
VKAPI_ATTR void VKAPI_CALL begin(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT* label) {
    calls.push_back({Call::Begin, label->pLabelName});
    realBegin(cmd, label);
}
VKAPI_ATTR void VKAPI_CALL end(VkCommandBuffer cmd) {
    calls.push_back({Call::End, ""});
    realEnd(cmd);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* function) {
    const std::string f = function;
    if (f == "vkSetDebugUtilsObjectNameEXT" || f == "vkCmdBeginDebugUtilsLabelEXT" || f == "vkCmdEndDebugUtilsLabelEXT") {
        if (hidden) return nullptr;
        PFN_vkVoidFunction real = vkGetInstanceProcAddr(instance, function);
        if (f == "vkSetDebugUtilsObjectNameEXT") {
            realName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(real);
            return reinterpret_cast<PFN_vkVoidFunction>(name);
        }
        if (f == "vkCmdBeginDebugUtilsLabelEXT") {
            realBegin = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(real);
            return reinterpret_cast<PFN_vkVoidFunction>(begin);
        }
        realEnd = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(end);
    }
    return vkGetInstanceProcAddr(instance, function);
}

// The labels of the calls from `first` on, as "+name" and "-" in order; checks they nest.
std::vector<std::string> labels(size_t first) {
    std::vector<std::string> out;
    int depth = 0;
    for (size_t i = first; i < calls.size(); ++i) {
        if (calls[i].kind == Call::Name) continue;
        depth += calls[i].kind == Call::Begin ? 1 : -1;
        CHECK(depth >= 0);
        out.push_back(calls[i].kind == Call::Begin ? "+" + calls[i].text : "-");
    }
    CHECK(depth == 0);
    return out;
}

} // namespace debuglog

TEST_CASE("debug labels: named pipelines, a label around the sort and each group of steps; none "
          "without the flag",
          "[pipelines]") {
    vkctx::Context& ctx = vktest::context();
    if (!ctx.debugUtilsEnabled()) {
        WARN("the instance has no VK_EXT_debug_utils (it comes with the validation layer here): nothing to check");
        return;
    }
    VksortSorterCreateInfo info = vktest::sorterCreateInfo(ctx);
    info.pfnGetInstanceProcAddr = debuglog::getInstanceProcAddr;
    info.keyTypes = VKSORT_KEY_TYPE_BIT(VKSORT_KEY_TYPE_FLOAT32);
    info.valueTypes = VKSORT_VALUE_TYPE_BIT(VKSORT_VALUE_TYPE_UINT32);
    debuglog::calls.clear();

    // Without the flag: not one call, creating or sorting.
    VksortSorter plain = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &plain) == VK_SUCCESS);
    info.flags |= VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT;
    VksortSorter labelled = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&info, &labelled) == VK_SUCCESS);

    // Every pipeline named once, after vksortGetSorterPipelines' name.
    std::set<std::string> named;
    for (const debuglog::Call& c : debuglog::calls) {
        CHECK(c.kind == debuglog::Call::Name);
        named.insert(c.text);
    }
    uint32_t pipelineCount = 0;
    REQUIRE(vksortGetSorterPipelines(labelled, &pipelineCount, nullptr) == VK_SUCCESS);
    std::vector<VksortPipelineInfo> pipelines(pipelineCount);
    REQUIRE(vksortGetSorterPipelines(labelled, &pipelineCount, pipelines.data()) == VK_SUCCESS);
    CHECK(debuglog::calls.size() == pipelines.size());
    for (const VksortPipelineInfo& p : pipelines) CHECK(named.count(std::string("vksort ") + p.name) == 1);

    // 100000 keys: the tile counts, then eight reorders that scan inline; the same count read on
    // the GPU: its copy, the tile counts, the one-workgroup sort they launch, then the same.
    const uint32_t count = 100000;
    vkctx::Buffer countBuffer = ctx.createBuffer(4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
    std::memcpy(countBuffer.mapped, &count, 4);
    {
    vktest::BindingsRig rig(ctx, labelled, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, count);
    rig.load(hostdata::generate(VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, count,
                                hostdata::Distribution{}, 3));
    VksortSortInfo sort{};
    sort.bindings = rig.bindings();
    sort.count = count;
    std::vector<std::string> passes;
    for (uint32_t p = 0; p < 8; ++p) {
        passes.push_back("+vksort: pass " + std::to_string(p) + " (reorder)");
        passes.push_back("-");
    }
    for (bool indirect : {false, true}) {
        INFO((indirect ? "indirect" : "direct"));
        const size_t first = debuglog::calls.size();
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            REQUIRE((indirect ? vksortCmdSortIndirect(cmd, labelled, &sort, countBuffer.buffer, 0, nullptr)
                              : vksortCmdSort(cmd, labelled, &sort, nullptr)) == VK_SUCCESS);
        });
        std::vector<std::string> want = {"+vksort: sort of f32 keys with u32 values"};
        // (A sorter that pushes its descriptors reads the count where it lies: no copy.)
        if (indirect && (info.flags & VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT) == 0) {
            want.insert(want.end(), {"+vksort: count copy", "-"});
        }
        want.insert(want.end(), {"+vksort: tile counts", "-"});
        if (indirect) want.insert(want.end(), {"+vksort: one-workgroup sort", "-"});
        want.insert(want.end(), passes.begin(), passes.end());
        want.push_back("-");
        CHECK(debuglog::labels(first) == want);
    }
    // The compare sort and its copy back: 4500 keys on a row that takes them through it.
    {
    vksort::TuningRow row = vksort::kTuningTable[1];
    row.compare.maxCount = 5000;
    VksortSorter compared = VK_NULL_HANDLE;
    REQUIRE(vksort::createSorter(&info, &row, &compared) == VK_SUCCESS);
    {
    vktest::BindingsRig compareRig(ctx, compared, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, 4500);
    compareRig.load(hostdata::generate(VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, 4500, hostdata::Distribution{}, 4));
    VksortSortInfo small{};
    small.bindings = compareRig.bindings();
    small.count = 4500;
    const size_t first = debuglog::calls.size();
    ctx.submitAndWait([&](VkCommandBuffer cmd) { REQUIRE(vksortCmdSort(cmd, compared, &small, nullptr) == VK_SUCCESS); });
    CHECK(debuglog::labels(first) == std::vector<std::string>{"+vksort: sort of f32 keys with u32 values",
                                                               "+vksort: compare sort", "-", "+vksort: result copy", "-", "-"});
    }
    vksortDestroySorter(compared);
    }
    // The merge sort: 20000 keys, chunks sorted, then merged.
    {
    vktest::BindingsRig mergeRig(ctx, labelled, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, 20000);
    mergeRig.load(hostdata::generate(VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, 20000, hostdata::Distribution{}, 5));
    const VksortSorterProperties properties = vktest::properties(labelled);
    REQUIRE(vksortTakesMergeSort(&properties, VKSORT_KEY_TYPE_FLOAT32, 8, 20000) == VK_TRUE);
    VksortSortInfo merged{};
    merged.bindings = mergeRig.bindings();
    merged.count = 20000;
    const size_t first = debuglog::calls.size();
    ctx.submitAndWait([&](VkCommandBuffer cmd) { REQUIRE(vksortCmdSort(cmd, labelled, &merged, nullptr) == VK_SUCCESS); });
    CHECK(debuglog::labels(first) == std::vector<std::string>{"+vksort: sort of f32 keys with u32 values",
                                                               "+vksort: chunk sort", "-", "+vksort: merge", "-", "-"});
    }
    // A segmented sort: its classes by name, and segments larger than one workgroup's sort
    // through the passes, whose first step is their tile counts.
    {
    VksortSorterCreateInfo segmentedInfo = info;
    segmentedInfo.flags |= VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT;
    VksortSorter segmented = VK_NULL_HANDLE;
    REQUIRE(vksortCreateSorter(&segmentedInfo, &segmented) == VK_SUCCESS);
    {
    const uint32_t keys = 24000;
    vktest::BindingsRig segmentRig(ctx, segmented, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, keys);
    segmentRig.load(hostdata::generate(VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, keys, hostdata::Distribution{}, 6));
    const VksortSorterProperties properties = vktest::properties(segmented);
    VksortSortInfo s{};
    s.bindings = segmentRig.bindings();
    s.count = keys;
    std::vector<std::string> large = {"+vksort: sort of f32 keys with u32 values", "+vksort: tile counts", "-"};
    large.insert(large.end(), passes.begin(), passes.end());
    large.push_back("-");
    const struct {
        uint32_t size;
        std::vector<std::string> want;
    } cases[] = {{4, {"+vksort: sort of f32 keys with u32 values", "+vksort: tiny segments", "-", "-"}},
                 {properties.singleDispatchMaxCount, {"+vksort: sort of f32 keys with u32 values",
                                                      "+vksort: small segments", "-", "-"}},
                 {keys / 2, large}};
    for (const auto& c : cases) {
        INFO("segments of " << c.size << " keys");
        VksortSegmentsInfo segments{};
        segments.segmentCount = keys / c.size;
        segments.segmentSize = c.size;
        const size_t first = debuglog::calls.size();
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            REQUIRE(vksortCmdSortSegments(cmd, segmented, &s, &segments, nullptr) == VK_SUCCESS);
        });
        CHECK(debuglog::labels(first) == c.want);
    }
    }
    vksortDestroySorter(segmented);
    }
    // The sorter without the flag records none.
    const size_t before = debuglog::calls.size();
    vktest::BindingsRig plainRig(ctx, plain, VKSORT_KEY_TYPE_FLOAT32, VKSORT_VALUE_TYPE_UINT32, count);
    sort.bindings = plainRig.bindings();
    ctx.submitAndWait([&](VkCommandBuffer cmd) { REQUIRE(vksortCmdSort(cmd, plain, &sort, nullptr) == VK_SUCCESS); });
    CHECK(debuglog::calls.size() == before);
    } // (the rigs destroy their bindings before the sorters go)

    // An instance without the extension: the flag is refused, saying why.
    debuglog::hidden = true;
    vktest::MessageLog log;
    info.pfnMessageCallback = vktest::MessageLog::callback;
    info.pMessageUserData = &log;
    VksortSorter refused = VK_NULL_HANDLE;
    CHECK(vksortCreateSorter(&info, &refused) == VK_ERROR_EXTENSION_NOT_PRESENT);
    CHECK(refused == VK_NULL_HANDLE);
    CHECK(log.contains("VK_EXT_debug_utils"));
    debuglog::hidden = false;

    ctx.destroyBuffer(countBuffer);
    vksortDestroySorter(plain);
    vksortDestroySorter(labelled);
    vktest::requireCleanValidation();
}
