// Planning: pure arithmetic about tiles, passes, dispatch grids and buffer layouts.
// No Vulkan calls live here, so all of it is unit-tested without a GPU (tests/test_plan.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "../shaders/vksort_config.h"
#include "kernels.hpp"

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
    uint64_t minStorageBufferOffsetAlignment = 0;
    uint32_t maxComputeWorkgroupSubgroups = 0; // 0: unknown (no subgroup size control)
    bool subgroupShuffle = false;              // VK_SUBGROUP_FEATURE_SHUFFLE_BIT in compute
};

// Tile geometry of the histogram and reorder pipelines (and, with more keys per invocation, of
// the single-workgroup sort).
struct TileConfig {
    uint32_t workgroupSize = 0;
    uint32_t keysPerThread = 0;
    uint32_t maxSubgroups = 0;  // specialization constant: workgroupSize / smallest subgroup size
    bool fullSubgroups = false; // pipelines are created with REQUIRE_FULL_SUBGROUPS
    // Specialization constant: 2 lets successive exchanges skip a barrier. The single-workgroup
    // sort's tile only: shaders/rank.glsl argues it for that kernel's sequence of exchanges (in the
    // reorders a second buffer's shared memory costs workgroups per multiprocessor:
    // docs/PERFORMANCE.md).
    uint32_t exchangeBuffers = 1;
    uint32_t tileSize() const { return workgroupSize * keysPerThread; }
};

// What the device lets the sorter control about subgroups.
struct SubgroupControl {
    bool fullSubgroupsAvailable = false; // subgroup size control and computeFullSubgroups enabled
    uint32_t requiredSize = 0;           // a pinned subgroup size, or 0
};

// Ranks inside a tile are packed into 16 bits (shaders/rank.glsl).
constexpr uint32_t kMaxTileSize = 65536;

// Tuning defaults as data: the first row that matches the device chooses the tile. A key of 0
// matches anything; every row fits every Vulkan 1.1 device once clamped to its limits
// (chooseTileConfig). docs/PERFORMANCE.md ("Tuning table") has the measurement behind each row.
struct TuningRow {
    uint32_t vendorID;             // VkPhysicalDeviceProperties::vendorID, or 0
    uint32_t subgroupSize;         // the device's default subgroup size, or 0
    uint32_t minSharedMemoryBytes; // the row applies from this much shared memory per workgroup
    uint32_t workgroupSize;        // invocations of the histogram and reorder workgroups
    uint32_t keysPerThread;        // the reorder's tile is workgroupSize * keysPerThread keys
    uint32_t singleKeysPerThread;  // the single-workgroup sort's keys per invocation
    // 64-bit keys' single-workgroup sort: the same tile over this many invocations (fewer keys
    // each), where the device allows; 0: the 32-bit keys' shape.
    uint32_t singleWorkgroupSize64;
    // Multi-tile sorts of [min, max] tiles take the look-back method (one dispatch per pass), all
    // others the scan method (two); 0, 0: never the look-back. [0]: 32-bit keys, [1]: 64-bit keys.
    uint32_t lookBackMinTiles[2];
    uint32_t lookBackMaxTiles[2];
    // Scan-method sorts of up to this many tiles have no scan step: each reorder sums the counts
    // of all tiles itself.
    uint32_t inlineScanMaxTiles;
};
// Scan method: sorts of up to this many tiles let each reorder sum the counts of all tiles itself
// (a few loads per workgroup, from L2) instead of waiting for a scan dispatch and its barrier,
// unless the tuning row says otherwise. The limit the scan method had before it was measured.
constexpr uint32_t kInlineScanMaxTiles = 256;
constexpr uint32_t kVendorNvidia = 0x10DE;
inline constexpr TuningRow kTuningTable[] = {
    {kVendorNvidia, 32, 48u * 1024u, 256, 8, 16, 512, {0, 0}, {0, 0}, 1024},
    // Every other device: not measured; the NVIDIA row's tiles, the scan method, which was the
    // only one before the look-back existed, and the inline scan's first limit.
    {0, 0, 0, 256, 8, 16, 512, {0, 0}, {0, 0}, kInlineScanMaxTiles},
};
const TuningRow& tuningFor(const DeviceFacts& device);

// Tiles each histogram workgroup counts: one while tiles are few (every multiprocessor gets
// work), up to kHistogramMaxTiles once there are thousands (fewer global atomics on the totals).
constexpr uint32_t kHistogramMaxTiles = 8;
constexpr uint32_t kHistogramTilesPerStep = 1024;
constexpr uint32_t histogramTilesPerWorkgroup(uint32_t tiles) {
    return tiles / kHistogramTilesPerStep < 1 ? 1 : tiles / kHistogramTilesPerStep > kHistogramMaxTiles ? kHistogramMaxTiles : tiles / kHistogramTilesPerStep;
}

// The configuration of the single-workgroup sort of keys of `keyWidth` (0: 32-bit, 1: 64-bit),
// derived from the main one. Its tile size, the largest count one dispatch sorts, is the same for
// both widths.
TileConfig chooseSingleTileConfig(const DeviceFacts& device, const TileConfig& main, const SubgroupControl& control,
                                  uint32_t keyWidth);

// The scan's workgroup: as wide as the device allows up to kScanWorkgroupSize and its shared
// memory fits, so that one chunk covers many tiles (a range's tiles are scanned by one workgroup,
// chunk after chunk).
constexpr uint32_t kScanWorkgroupSize = 1024;
TileConfig chooseScanConfig(const DeviceFacts& device, const TileConfig& main, const SubgroupControl& control);

// Which tile counts take the look-back method, per key width (0: 32-bit keys, 1: 64-bit keys):
// [minTiles, maxTiles]; maxTiles 0: none. And up to which the scan method scans inline.
struct MethodRange {
    uint32_t minTiles[2] = {0, 0};
    uint32_t maxTiles[2] = {0, 0};
    uint32_t inlineScanMaxTiles = kInlineScanMaxTiles; // the scan method's: see TuningRow
    bool lookBack(uint32_t keyWidth, uint32_t tiles) const {
        return tiles >= minTiles[keyWidth] && tiles <= maxTiles[keyWidth] && maxTiles[keyWidth] != 0;
    }
    bool anyLookBack(uint32_t keyWidth) const { return maxTiles[keyWidth] != 0 && minTiles[keyWidth] <= maxTiles[keyWidth]; }
    bool allLookBack(uint32_t keyWidth) const { return minTiles[keyWidth] <= 1 && maxTiles[keyWidth] == UINT32_MAX; }
};
// The range for a VksortOffsetMethod (0 auto: the tuning row's, 1 scan: none, 2 look-back: all).
MethodRange chooseMethodRange(const DeviceFacts& device, uint32_t method);

// Shared memory each kernel declares for a configuration, in bytes (tests/test_shared_memory.cpp
// checks them against the compiled SPIR-V). The reorder is the largest user of the tile's.
uint32_t reorderSharedMemoryBytes(const TileConfig& config);
uint32_t reorderScanSharedMemoryBytes(const TileConfig& config);
uint32_t histogramSharedMemoryBytes(const TileConfig& config);
uint32_t tileCountsSharedMemoryBytes(const TileConfig& config);
uint32_t scanSharedMemoryBytes(const TileConfig& config);
// Any kernel's, for the tile it is specialized with.
uint32_t sharedMemoryBytes(Kernel kernel, const TileConfig& config);
// Shared memory the single-workgroup sort needs, in bytes.
uint32_t singleSharedMemoryBytes(const TileConfig& config);

// Picks the tile configuration for a device; overrides of 0 mean "choose". Returns false with a
// reason when an override or the device cannot work.
bool chooseTileConfig(const DeviceFacts& device, uint32_t workgroupOverride, uint32_t keysPerThreadOverride,
                      const SubgroupControl& control, TileConfig* config, std::string* reason);

// The largest workgroup the sorter may create: the device's limits, and with a required subgroup
// size at most maxComputeWorkgroupSubgroups subgroups of that size.
uint32_t workgroupLimit(const DeviceFacts& device, const SubgroupControl& control);

constexpr uint32_t ceilDiv(uint32_t a, uint32_t b) { return vksortCeilDiv(a, b); }
constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}
constexpr bool isPowerOfTwo(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The largest element count one sort can handle with these element sizes: every binding's range
// must fit maxStorageBufferRange, and tile indices stay inside 32 bits.
uint32_t maxElementCount(const DeviceFacts& device, const TileConfig& config, uint32_t keyBytes,
                         uint32_t valueBytes);

// Where everything lives inside the caller's scratch range (offsets relative to its start).
struct ScratchLayout {
    uint64_t keysOffset = 0, keysBytes = 0;
    uint64_t valuesOffset = 0, valuesBytes = 0;
    uint64_t tablesOffset = 0, tablesBytes = 0;
    uint64_t totalBytes = 0;
    uint32_t rowStride = 0; // tiles per tile-status table: the capacity's tile count
};

ScratchLayout planScratch(const TileConfig& config, uint32_t maxCount, uint32_t keyBytes, uint32_t valueBytes,
                          uint64_t alignment);

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

// A 2D grid of at least `workgroups` workgroups whose rows fit the device's X limit; the
// shaders flatten (x, y) and drop indices past the tile count.
struct Grid {
    uint32_t x = 0, y = 0;
};
Grid gridFor(uint32_t workgroups, uint32_t maxX);

} // namespace vksort
