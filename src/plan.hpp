// SPDX-License-Identifier: MIT
// Planning: pure arithmetic about tiles, shared memory, passes, dispatch grids and buffer layouts.
// No Vulkan calls live here, so all of it is unit-tested without a GPU (tests/test_plan.cpp).
// Which tile a device gets is the tuning table's business (src/tuning.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "../shaders/vksort_config.h"

namespace vksort {

// What the planner needs to know about a device (filled from Vulkan in device.cpp).
struct DeviceFacts {
    uint32_t vendorID = 0;         // VkPhysicalDeviceProperties::vendorID (the tuning table's key)
    uint32_t subgroupSize = 0;     // the default size (VkPhysicalDeviceSubgroupProperties)
    uint32_t minSubgroupSize = 0;  // smallest size a compute dispatch may use
    uint32_t maxSubgroupSize = 0;  // largest size a compute dispatch may use
    uint32_t maxSharedMemoryBytes = 0;
    uint32_t maxWorkgroupInvocations = 0;
    uint32_t maxWorkgroupSizeX = 0;
    uint32_t maxWorkgroupCount[3] = {0, 0, 0};
    uint64_t maxStorageBufferRange = 0;
    uint32_t maxPerStageStorageBuffers = 0; // maxPerStageDescriptorStorageBuffers
    uint64_t minStorageBufferOffsetAlignment = 0;
    uint64_t minUniformBufferOffsetAlignment = 0;
    uint32_t maxComputeWorkgroupSubgroups = 0; // 0: unknown (no subgroup size control)
    bool subgroupShuffle = false;              // VK_SUBGROUP_FEATURE_SHUFFLE_BIT in compute
};

// The geometry of a kernel's workgroup: the tile-counts and reorder pipelines' tile, or with more
// keys per invocation the single-workgroup sort's, or the scan step's wide workgroup.
struct TileConfig {
    uint32_t workgroupSize = 0;
    uint32_t keysPerThread = 0;
    uint32_t maxSubgroups = 0;  // specialization constant: workgroupSize / smallest subgroup size
    bool fullSubgroups = false; // pipelines are created with REQUIRE_FULL_SUBGROUPS
    // Specialization constant: 2 lets successive exchanges skip a barrier. The single-workgroup
    // sort's tile only (TuningRow::Single): shaders/rank.glsl argues it for that kernel's sequence
    // of exchanges; in the reorder a second buffer's shared memory would halve the resident
    // workgroups.
    uint32_t exchangeBuffers = 1;
    // Specialization constants of the merge sort's merge step only (TuningRow::Merge,
    // shaders/merge_rank.comp): invocations per key, whose workgroup places workgroupSize /
    // keyLanes keys, and wideKeyLanes (at most keyLanes) for its wide blocks.
    uint32_t keyLanes = 1;
    uint32_t wideKeyLanes = 1;
    // 32-bit words per key, where a kernel's shared memory depends on them: the merge step's,
    // whose pipelines each serve one key width (its windows hold sorted bits).
    uint32_t keyWords = 1;
    // Specialization constant: the merge step's room for its windows, in keys (mergeWindowRoom).
    uint32_t windowRoom = 0;
    uint32_t tileSize() const { return workgroupSize * keysPerThread; }
};

// The compare sort's launch (chooseCompareTileConfig in src/tuning.cpp): the direct sorts that
// vksortTakesCompareSort gives it, with maxCount as compareSortMaxCount, in workgroups of
// workgroupSize invocations that each place workgroupKeys keys.
struct CompareConfig {
    uint32_t maxCount = 0;
    uint32_t workgroupSize = 0;
    uint32_t workgroupKeys = 0;
    uint32_t shareCount = 0; // as compareSortShareCount
};

// The merge sort's launch (chooseMergeTileConfig in src/tuning.cpp): the direct sorts that
// vksortTakesMergeSort gives it, with maxCount as mergeSortMaxCount (or mergeSortMaxCount64: a
// sorter has one per key width), sorted in chunks of chunkKeys keys (the single-workgroup sort's
// tile; src/program.cpp takes main tiles instead where few enough hold the count) and merged by
// workgroups that each place blockKeys keys (shaders/merge_rank.comp); direct sorts of at least
// wideMinCount keys in wide blocks of wideBlockKeys (no fewer) instead.
struct MergeConfig {
    uint32_t maxCount = 0;
    uint32_t chunkKeys = 0;
    uint32_t blockKeys = 0;
    // The chunks are sorted by comparisons (shaders/chunk_sort.comp) instead of passes where
    // chunkSort (its pipelines exist) and the sort has at least minPasses passes, or mainMinPasses
    // where chunks of the main tile would hold the count (0: never).
    bool chunkSort = false;
    uint32_t chunkSortMinPasses = 0;
    uint32_t chunkSortMainMinPasses = 0;
    uint32_t wideBlockKeys = 0;
    uint32_t wideMinCount = 0;
};

// How a sort of many tiles finds each tile's offsets (the tuning row's, src/tuning.hpp): up to
// inlineMaxTiles tiles each reorder sums the counts of all tiles itself; above, a scan step per
// pass, whose layout the other three fields choose (vksortScanRangeTiles in vksort_config.h).
struct ScanConfig {
    uint32_t inlineMaxTiles = 0;
    uint32_t oneRangeMaxTiles = 0;
    uint32_t rangeMinTiles = 0;
    uint32_t itemsPerThread = 0;
    uint32_t ranges(uint32_t tiles) const { return vksortScanRanges(tiles, oneRangeMaxTiles, rangeMinTiles); }
    uint32_t workgroups(uint32_t tiles) const { return vksortScanWorkgroups(tiles, oneRangeMaxTiles, rangeMinTiles); }
};

// What the device lets the sorter control about subgroups.
struct SubgroupControl {
    bool fullSubgroupsAvailable = false; // subgroup size control and computeFullSubgroups enabled
    uint32_t requiredSize = 0;           // a pinned subgroup size, or 0
};

// Ranks inside a tile are packed into 16 bits (shaders/rank.glsl).
constexpr uint32_t kMaxTileSize = 65536;

// Shared memory each kernel declares for a configuration, in bytes (tests/test_shared_memory.cpp
// checks them against the compiled SPIR-V). Each kernel's row in shaders/vksort_kernels.h names
// its function. `twin`: the kernel's variant twin (two more words where the kernel has one), the
// larger, which is what a tile must fit.
uint32_t tileCountsSharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t scanSharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t reorderSharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t singleSharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t classifySharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t tinySharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t compareSortSharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t chunkSortSharedMemoryBytes(const TileConfig& config, bool twin = true);
uint32_t mergeRankSharedMemoryBytes(const TileConfig& config, bool twin = true);

// The merge step's room for its windows (TileConfig::windowRoom) for chunks of up to chunkKeys
// keys: for every chunk twice the block, and where wide blocks are wider, for every chunk but
// the block's own the wide block and three sample strides (one at each end, one for keys
// unevenly spread), whichever is more.
uint32_t mergeWindowRoom(const TileConfig& config, uint32_t chunkKeys);

// The largest workgroup the sorter may create: the device's limits, and with a required subgroup
// size at most maxComputeWorkgroupSubgroups subgroups of that size.
uint32_t workgroupLimit(const DeviceFacts& device, const SubgroupControl& control);

// Whether the device lets one shader stage bind `storageBuffers` storage buffers (Vulkan guarantees
// only 4): every pipeline binds keys and values in and out and the tables, and a sorter variant
// (src/variant.hpp, `description`) may add more. False with a reason when it does not.
bool descriptorLimitsFit(const DeviceFacts& device, uint32_t storageBuffers, const char* description,
                         std::string* reason);

constexpr uint32_t ceilDiv(uint32_t a, uint32_t b) { return vksortCeilDiv(a, b); }
constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}
constexpr bool isPowerOfTwo(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The largest element count one sort can handle with these element sizes: every binding's range
// (keys, values, the scratch copies, the tables) must fit maxStorageBufferRange, the tiles must
// fit one grid of maxWorkgroupCount[0] x [1] workgroups, and positions stay below 2^32.
uint32_t maxElementCount(const DeviceFacts& device, const TileConfig& config, uint32_t keyBytes,
                         uint32_t valueBytes);

// Where everything lives inside the caller's scratch range (offsets relative to its start).
struct ScratchLayout {
    uint64_t keysOffset = 0, keysBytes = 0;
    uint64_t valuesOffset = 0, valuesBytes = 0;
    uint64_t tablesOffset = 0, tablesBytes = 0;
    // A sorter variant's arguments (src/variant.hpp) and the spare range its other sets bind in
    // their place: each kVariantArgsWords words, planned for every sorter so that one scratch
    // range serves sorters of every variant.
    uint64_t variantArgsOffset = 0, spareArgsOffset = 0, variantArgsBytes = 0;
    // An indirect sort's launch arguments (kBindingLaunchArgs of kSetLaunch): kLaunchWords words.
    uint64_t launchOffset = 0, launchBytes = 0;
    uint64_t totalBytes = 0;
    uint32_t rowStride = 0; // tiles per counts table: the capacity's tile count, and extraTiles
};

// A segmented sorter's size classes (shaders/segments.glsl): segments up to tinyMax keys take an
// invocation per key, up to shortMax the short tile's workgroup, up to midMax the main tile's, up
// to singleMax the single-workgroup sort's, larger ones the passes.
struct SegmentLimits {
    uint32_t tinyMax = 0, shortMax = 0, midMax = 0, singleMax = 0;
};
// The short and mid-sized classes end at their tiles where those lie above the class before and
// below singleMax; else they are empty (their limit is the class before's).
SegmentLimits segmentLimits(uint32_t tinyMax, uint32_t shortTile, uint32_t mainTile, uint32_t singleMax);

// The tiles a segmented sort may add to a capacity's: segments of more than singleMaxCount keys
// each start a tile of their own (shaders/tile.glsl), at most one more tile for each such segment
// and one for the last.
constexpr uint32_t segmentExtraTiles(uint32_t maxCount, uint32_t singleMaxCount) {
    return maxCount / (singleMaxCount + 1u) + 1u;
}

// With `segments` (a segmented sorter's), the counts tables have segmentExtraTiles more rows and
// the tables end with the segments' lists (vksortSegmentTablesWords).
ScratchLayout planScratch(const TileConfig& config, uint32_t maxCount, uint32_t keyBytes, uint32_t valueBytes,
                          uint64_t alignment, const SegmentLimits* segments = nullptr);

// The digit passes over bits [beginBit, endBit): pass i sorts bits [beginBit + 4i, ...).
struct PassPlan {
    uint32_t beginBit = 0;
    uint32_t endBit = 0;
    uint32_t passCount = 0;
    uint32_t shift(uint32_t pass) const { return beginBit + pass * kDigitBits; }
};

// endBit == 0 means the key's width. Returns false (with a reason) for an empty or
// out-of-range bit range.
bool planPasses(uint32_t keyBits, uint32_t beginBit, uint32_t endBit, PassPlan* plan, std::string* reason);

// Descriptor sets of a bindings object, one per direction of the ping-pong: even passes read the
// caller's buffers and write the scratch copies, odd passes the reverse. The single-workgroup
// sort writes its result where the passes would have: in place for an even pass count. The
// launch set binds the launch arguments at kBindingLaunchArgs and the caller's count at
// kBindingCountIn: only the tile counts of an indirect sort use it, so only they write the launch
// arguments (shaders/vksort_config.h). The variant set is the forward one with a sorter variant's
// arguments bound for writing (src/variant.hpp): the steps that run a second pipeline use it.
enum BindingSet : uint32_t {
    kSetForward = 0,
    kSetBackward = 1,
    kSetInPlace = 2,
    kSetLaunch = 3,
    kSetVariant = 4,
    kSetCount = 5
};

// A 2D grid of at least `workgroups` workgroups whose rows fit the device's X limit; the
// shaders flatten (x, y) and drop indices past the tile count.
struct Grid {
    uint32_t x = 0, y = 0;
};
Grid gridFor(uint32_t workgroups, uint32_t maxX);

} // namespace vksort
