// SPDX-License-Identifier: MIT
// Tuning: every number chosen by measurement, one row per device class, and the choices that
// follow from a row and the device's limits (clamped so that every row fits every Vulkan 1.1
// device). A new device class is one new row; the measurement behind each value is written
// beside it.
#pragma once

#include <cstdint>
#include <string>

#include "plan.hpp"

namespace vksort {

struct TuningRow {
    // Which devices the row is for: the first row whose keys all match chooses. 0 matches any.
    uint32_t vendorID;             // VkPhysicalDeviceProperties::vendorID
    uint32_t subgroupSize;         // the device's default subgroup size
    uint32_t minSharedMemoryBytes; // the row applies from this much shared memory per workgroup
    // The tile of the tile-counts and reorder kernels: workgroupSize * keysPerThread keys.
    uint32_t workgroupSize;
    uint32_t keysPerThread;
    // The single-workgroup sort: keys per invocation (over the same workgroup), which sets the
    // largest count sorted in one dispatch; for 64-bit keys the same tile over this many
    // invocations where the device allows it (0: the 32-bit keys' shape), and only with at least
    // singleMinKeysPerThread64 keys each.
    uint32_t singleKeysPerThread;
    uint32_t singleWorkgroupSize64;
    uint32_t singleMinKeysPerThread64;
    // Sorts of up to this many tiles have no scan step: each reorder sums the counts of all
    // tiles itself.
    uint32_t inlineScanMaxTiles;
    // The scan step: its workgroup (as wide as the device allows up to this), up to how many
    // tiles one workgroup per digit scans them all (itemsPerThread tiles per invocation per
    // chunk), and above that the smallest range of tiles per workgroup.
    uint32_t scanWorkgroupSize;
    uint32_t scanOneRangeMaxTiles;
    uint32_t scanRangeMinTiles;
    uint32_t scanItemsPerThread;
};

constexpr uint32_t kVendorNvidia = 0x10DE;

inline constexpr TuningRow kTuningTable[] = {
    // NVIDIA, 32-wide subgroups, 48 KiB of shared memory (H100, driver 580; the H200 ran the same
    // row). 256 x 8: sweeps of tiles from 128 x 8 to 256 x 16 at 2^16 to 2^24 keys (128 x 8 was
    // 16% slower at 2^24, 256 x 5 to 7 slower from 2^20 up, 256 x 16 12% slower at 2^24).
    // The single-workgroup sort as 256 x 16 (4096 keys in one dispatch): 512 x 8 and 1024 x 4 were
    // 2-4% slower for 32-bit keys; for 64-bit keys 512 x 8 was 3-9% faster than 256 x 16.
    // Inline scan up to 1024 tiles: it beat a scan step up to 1024 tiles and lost from 1536.
    // One range up to 3072 tiles: ranges lost up to 11% at 1536-2048 tiles, tied at 3072 and won
    // 0.8-3% from about 3400. Ranges of at least 256 tiles, 16 tiles per invocation per chunk and
    // the 1024-invocation scan workgroup are the shapes the ranged scan step was measured with.
    {kVendorNvidia, 32, 48u * 1024u, 256, 8, 16, 512, 8, 1024, 1024, 3072, 256, 16},
    // Every other device: not measured; the NVIDIA row's shapes, clamped to the device, with the
    // inline scan up to 256 tiles, the limit it had before it was measured.
    {0, 0, 0, 256, 8, 16, 512, 8, 256, 1024, 3072, 256, 16},
};
const TuningRow& tuningFor(const DeviceFacts& device);

// Picks the tile configuration for a device; overrides of 0 mean "choose". Returns false with a
// reason when an override or the device cannot work.
bool chooseTileConfig(const DeviceFacts& device, uint32_t workgroupOverride, uint32_t keysPerThreadOverride,
                      const SubgroupControl& control, TileConfig* config, std::string* reason);

// The configuration of the single-workgroup sort of keys of `keyWidth` (0: 32-bit, 1: 64-bit),
// derived from the main one. Its tile size, the largest count one dispatch sorts, is the same for
// both widths.
TileConfig chooseSingleTileConfig(const DeviceFacts& device, const TileConfig& main, const SubgroupControl& control,
                                  uint32_t keyWidth);

// The scan step's workgroup: as wide as the device allows up to the row's scanWorkgroupSize and
// its shared memory fits, so that one chunk covers many tiles.
TileConfig chooseScanTileConfig(const DeviceFacts& device, const TileConfig& main, const SubgroupControl& control);

// The row's inline-scan and scan-step limits.
ScanConfig chooseScanConfig(const DeviceFacts& device);

} // namespace vksort
