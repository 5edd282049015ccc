// SPDX-License-Identifier: MIT
// The sort as data: a pure function from (sorter configuration, bindings layout, sort request)
// to the fixed list of steps the recorder replays. Each step carries everything its recording
// needs (kernel, binding set, complete push constants, launch, timestamps, the barrier after it),
// so record.cpp is one loop and every property of a sort's data path is testable on the CPU
// (tests/test_program.cpp). No Vulkan calls, no heap.
#pragma once

#include <vksort/vksort.h>

#include <cstdint>

#include "kernels.hpp"
#include "plan.hpp"
#include "variant.hpp"

namespace vksort {

enum class StepKind : uint32_t {
    CopyCount, // transfer: the caller's count into the tables' kInfoRequested word (unless bound)
    Dispatch,
};

enum class Barrier : uint32_t {
    None,              // the last step: the caller owns the barrier after the sort
    TransferToCompute, // the copied count, before the tile counts read it
    Compute,           // compute writes -> compute reads and writes
    ComputeAndIndirect // the same, and -> the launch-argument reads of indirect dispatches
};

struct Step {
    StepKind kind = StepKind::Dispatch;
    Kernel kernel = Kernel::TileCounts;
    // Runs the kernel's second pipeline with kSetVariant, as a sorter variant chooses
    // (Variant::chooseStep), and its barrier also reaches the uniform reads of what it writes.
    bool second = false;
    BindingSet set = kSetForward;
    VksortPushConstants constants{};
    // Indirect launches read a VkDispatchIndirectCommand from word `argsWord` of the launch
    // arguments (written by an indirect sort's tile counts), or with `variantArgs` from that word
    // of a sorter variant's arguments (written by a step of its second pipeline); direct launches
    // use `grid`.
    bool indirect = false;
    bool variantArgs = false;
    // A segmented sort's tiny segments read the caller's offsets bound at the tables' binding
    // (SideBuffers::offsets); every other step binds the tables there.
    bool offsetsAtTables = false;
    uint32_t argsWord = 0;
    Grid grid;
    uint32_t pass = 0;          // the digit pass this step belongs to (0 for the steps before the passes)
    uint32_t firstTimestamp = 0; // timestamps written after the step: [first, first + count)
    uint32_t timestampCount = 0;
    Barrier barrier = Barrier::None;
};

// Copy, tile counts, single-workgroup sort, then per pass a scan and a reorder; a segmented sort
// by offsets: the tiny segments, two classify steps, the short, mid-sized and small segments,
// then the passes' tile counts, scans and reorders.
constexpr uint32_t kMaxProgramSteps = 7 + 2 * kMaxPasses;

// A segmented sort's segments (vksortCmdSortSegments): their number, and their uniform size or
// (segmentSize 0) the word of the offsets' binding where the caller's offsets start; by offsets,
// perhaps a count read on the GPU (`countIn`, at most `count`) from word countWord of the binding
// kBindingSegmentCountIn. The tiny segments' dispatch launches at most launchThreads invocations,
// in workgroups of ProgramInput::tinyMaxCount, which loop over the segments.
struct SegmentsInput {
    uint32_t count = 0; // 0: not a segmented sort
    uint32_t size = 0;
    uint32_t offsetsWord = 0;
    uint32_t launchThreads = 0;
    bool countIn = false;
    uint32_t countWord = 0;
};

// What a program depends on: the sorter's tiles, the bindings' layout and the request.
struct ProgramInput {
    TileConfig tile;             // the tile-counts and reorder tile
    uint32_t singleMaxCount = 0; // counts up to this sort in one workgroup
    CompareConfig compare;       // the compare sort, for direct sorts of keyType that it takes
    MergeConfig merge;           // the merge sort, for direct sorts of keyType that it takes
    VksortKeyType keyType = VKSORT_KEY_TYPE_UINT32;
    uint32_t tinyMaxCount = 0;   // a segmented sort's segments up to this take an invocation per key
    uint32_t shortMaxCount = 0;  // and up to this the short segments' tile
    uint32_t maxWorkgroupCountX = 0;
    uint32_t maxCount = 0;       // the bindings' capacity
    uint32_t rowStride = 0;      // ScratchLayout::rowStride
    uint32_t keyFlags = 0;       // orderFlags(): key type and order
    bool indexValues = false;    // the values are the argsort permutation
    PassPlan passes;
    uint32_t count = 0;          // ignored when indirect
    bool indirect = false;       // the count comes from the caller's buffer at execution time
    // Where the tile counts read that count: word `countWord` of the launch set's kBindingCountIn,
    // which binds the caller's buffer in place (`countBound`: push descriptors) or the tables, into
    // whose word kInfoRequested a copy step puts it.
    bool countBound = false;
    uint32_t countWord = kInfoRequested;
    ScanConfig scan;             // which tile counts need a scan step, and its shape
    // What the sorter's variant changes in the scan and reorder steps (src/variant.hpp).
    Variant variant;
    SegmentsInput segments;
};

struct Program {
    Step steps[kMaxProgramSteps];
    uint32_t stepCount = 0;
    // Timestamps written before the first step (query 0; every query when there is no step).
    uint32_t leadingTimestamps = 0;
    uint32_t timestampCount = 0; // vksortTimestampQueryCount(passCount): 2 + passCount
};

// kFlag* bits for a key type and order.
uint32_t orderFlags(VksortKeyType keyType, VksortOrder order);

void buildProgram(const ProgramInput& input, Program* program);

// The input of a sort with these bindings (src/sort.cpp, which turns a call into a program).
ProgramInput programInput(const VksortSorter_T& sorter, const VksortBindings_T& bindings, const PassPlan& passes,
                          VksortOrder order, uint32_t count, bool indirect);

} // namespace vksort
