// SPDX-License-Identifier: MIT
#include "tuning.hpp"

#include <algorithm>

namespace vksort {

namespace {

// The subgroup rules for c's workgroup size. Full subgroups are requested where available (the
// workgroup must then be a multiple of the largest size it may get). Shared arrays are sized per
// subgroup, for the narrowest subgroups the device says a compute dispatch may get: a required
// size where one is pinned, else the smallest of the default size and
// VkPhysicalDeviceSubgroupSizeControlProperties::minSubgroupSize where the device reports it
// (read without enabling anything). Whether the subgroups are full is proven in the shaders at run
// time (denseSubgroups() in shaders/common.glsl), so neither the sizing nor the speed depends on
// the full-subgroups request. A launch with more subgroups than that (a driver that launches
// narrower subgroups than it reports) is still sorted correctly: the shaders share counters
// between subgroups in turns (shaders/rank.glsl), slower but never out of bounds.
void applySubgroupRules(const DeviceFacts& device, const SubgroupControl& control, TileConfig* c) {
    const uint32_t largest = control.requiredSize != 0 ? control.requiredSize : device.maxSubgroupSize;
    const uint32_t smallest = control.requiredSize != 0 ? control.requiredSize : device.minSubgroupSize;
    c->fullSubgroups = control.fullSubgroupsAvailable && c->workgroupSize % largest == 0;
    c->maxSubgroups = std::max(1u, c->workgroupSize / smallest);
}

// The reorder keeps its keys in registers, fully unrolled: past 32 keys per thread they spill, and
// the drivers' compile time grows with the unrolled code. The tuning rows use 8 (reorder) and 16
// (single workgroup), so 32 leaves tuning room.
constexpr uint32_t kMaxKeysPerThread = 32;

// Lanes per key: a power of two, at most kMergeChunks (each lane's share of the windows' loads is
// then at least one: shaders/merge_rank.comp), and few enough that a block of 4 keys fits the
// device's workgroup.
uint32_t mergeKeyLanes(uint32_t rowLanes, uint32_t limit) {
    uint32_t lanes = 1;
    while (lanes * 2 <= std::min(rowLanes, kMergeChunks) && lanes * 8 <= limit) lanes *= 2;
    return lanes;
}

} // namespace

const TuningRow& tuningFor(const DeviceFacts& device) {
    for (const TuningRow& row : kTuningTable) {
        const TuningRow::Match& m = row.match;
        if ((m.vendorID == 0 || m.vendorID == device.vendorID) &&
            (m.subgroupSize == 0 || m.subgroupSize == device.subgroupSize) &&
            device.maxSharedMemoryBytes >= m.minSharedMemoryBytes) {
            return row;
        }
    }
    return kTuningTable[sizeof(kTuningTable) / sizeof(kTuningTable[0]) - 1];
}

namespace {

// As many exchange buffers as the row asks for and fit beside the tile. The tile comes first: it
// decides which counts take one dispatch.
TileConfig withExchangeBuffers(const DeviceFacts& device, const TuningRow& row, TileConfig c) {
    c.exchangeBuffers = std::max(1u, std::min(row.single.exchangeBuffers, 2u));
    while (c.exchangeBuffers > 1 && singleSharedMemoryBytes(c) > device.maxSharedMemoryBytes) --c.exchangeBuffers;
    return c;
}

} // namespace

TileConfig chooseSingleTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                  const SubgroupControl& control, uint32_t keyWidth) {
    // Same workgroup, so the same subgroup rules; more keys per invocation while they fit.
    TileConfig c = main;
    c.exchangeBuffers = 1;
    c.keysPerThread = std::max(main.keysPerThread, row.single.keysPerThread);
    while (c.keysPerThread > main.keysPerThread &&
           (singleSharedMemoryBytes(c) > device.maxSharedMemoryBytes || c.tileSize() > kMaxTileSize)) {
        c.keysPerThread /= 2;
    }
    c.keysPerThread = std::max(c.keysPerThread, main.keysPerThread);
    c = withExchangeBuffers(device, row, c);
    c.keyWords = keyWidth + 1;
    // 64-bit keys: the same tile over a wider workgroup where the row asks for one and it fits,
    // with the subgroup rules of chooseTileConfig for that width. Only shapes like the measured
    // one (512 x 8, as many exchange buffers): the row's fewest keys per invocation, no buffer fewer.
    const uint32_t wide = row.single.workgroupSize64;
    if (keyWidth == 1 && wide > c.workgroupSize && isPowerOfTwo(wide) && c.tileSize() % wide == 0 &&
        wide <= workgroupLimit(device, control)) {
        TileConfig w = c;
        w.workgroupSize = wide;
        w.keysPerThread = c.tileSize() / wide;
        applySubgroupRules(device, control, &w);
        w = withExchangeBuffers(device, row, w);
        if (w.keysPerThread >= row.single.minKeysPerThread64 && w.exchangeBuffers >= c.exchangeBuffers &&
            singleSharedMemoryBytes(w) <= device.maxSharedMemoryBytes) {
            c = w;
        }
    }
    return c;
}

TileConfig chooseCountsTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                  const SubgroupControl& control) {
    // The divisor halves while the workgroup would fall below kRadix invocations (one writes each
    // digit's count) or an invocation would count more than 255 keys (its 8-bit counters, see
    // shaders/tile_counts.comp).
    uint32_t divisor = isPowerOfTwo(row.counts.workgroupDivisor) ? row.counts.workgroupDivisor : 1u;
    while (divisor > 1 && (main.workgroupSize / divisor < kRadix || main.keysPerThread * divisor > 255u)) divisor /= 2;
    TileConfig c = main;
    c.workgroupSize = main.workgroupSize / divisor;
    c.keysPerThread = main.keysPerThread * divisor;
    applySubgroupRules(device, control, &c);
    return c;
}

TileConfig chooseScanTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                const SubgroupControl& control) {
    TileConfig c = main;
    c.keysPerThread = 1;
    // The same subgroup rules as the main configuration, for the wider workgroup; narrower while
    // its shared memory does not fit (one-lane subgroups need a row of counters each).
    for (c.workgroupSize = std::min(row.scan.workgroupSize, workgroupLimit(device, control));; c.workgroupSize /= 2) {
        applySubgroupRules(device, control, &c);
        if (c.workgroupSize <= kRadix || scanSharedMemoryBytes(c) <= device.maxSharedMemoryBytes) break;
    }
    return c;
}

TileConfig chooseTinyTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                const SubgroupControl& control) {
    TileConfig c = main;
    c.keysPerThread = 1;
    c.workgroupSize = std::max(1u, std::min(row.segments.tinyKeys, workgroupLimit(device, control)));
    applySubgroupRules(device, control, &c);
    return c;
}

TileConfig chooseShortTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                 const SubgroupControl& control) {
    TileConfig c = main;
    c.exchangeBuffers = 1;
    c.workgroupSize = std::max(kRadix, std::min({row.segments.shortTile.workgroupSize, workgroupLimit(device, control),
                                                 main.workgroupSize}));
    c.keysPerThread = std::max(1u, std::min(row.segments.shortTile.keysPerThread, main.keysPerThread));
    applySubgroupRules(device, control, &c);
    return c;
}

TileConfig chooseCompareTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                   const SubgroupControl& control, CompareConfig* launch) {
    TileConfig c = main;
    c.exchangeBuffers = 1;
    // The largest power of two within the row's size and the device's limit (at least 1).
    const uint32_t wanted = std::min(row.compare.workgroupSize, workgroupLimit(device, control));
    for (c.workgroupSize = 1; c.workgroupSize * 2 <= wanted;) c.workgroupSize *= 2;
    // Whole vectors of four words per invocation (shaders/compare_sort.comp): smaller chunks,
    // then a narrower workgroup, until they fit the shared memory.
    c.keysPerThread = std::max(4u, row.compare.wordsPerThread) / 4 * 4;
    while (compareSortSharedMemoryBytes(c) > device.maxSharedMemoryBytes && c.workgroupSize > 1) {
        if (c.keysPerThread > 4) c.keysPerThread = c.keysPerThread / 8 * 4;
        else c.workgroupSize /= 2;
    }
    applySubgroupRules(device, control, &c);
    uint32_t keys = std::max(1u, std::min(row.compare.workgroupKeys, c.workgroupSize));
    while (c.workgroupSize % keys != 0) --keys;
    const uint32_t share = row.compare.shareCount != 0 ? row.compare.shareCount : row.compare.maxCount;
    *launch = CompareConfig{row.compare.maxCount, c.workgroupSize, keys, share};
    return c;
}

TileConfig chooseMergeTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                 const SubgroupControl& control, uint32_t chunkKeys, uint32_t keyWidth, MergeConfig* launch) {
    TileConfig c = main;
    c.exchangeBuffers = 1;
    c.keysPerThread = 1;
    c.keyWords = keyWidth + 1;
    const uint32_t limit = workgroupLimit(device, control);
    c.keyLanes = mergeKeyLanes(keyWidth == 1 ? row.merge.keyLanes64 : row.merge.keyLanes, limit);
    // Wide blocks are no narrower (the shared memory is sized for them); 64-bit keys have none.
    const uint32_t rowWideLanes = keyWidth == 0 && row.merge.wideKeyLanes != 0 ? row.merge.wideKeyLanes : c.keyLanes;
    c.wideKeyLanes = std::min(c.keyLanes, mergeKeyLanes(rowWideLanes, limit));
    // The largest power of two within the row's size and the device's limit, from blocks of at
    // least 4 keys, halved until its shared memory fits.
    const uint32_t smallest = 4 * c.keyLanes;
    const uint32_t wanted = std::min(row.merge.workgroupSize, limit);
    for (c.workgroupSize = smallest; c.workgroupSize * 2 <= wanted;) c.workgroupSize *= 2;
    for (;;) {
        c.windowRoom = mergeWindowRoom(c, chunkKeys);
        if (mergeRankSharedMemoryBytes(c) <= device.maxSharedMemoryBytes || c.workgroupSize <= smallest) break;
        c.workgroupSize /= 2;
    }
    // Where even that does not fit (little shared memory, large chunks), the windows get what is
    // left, a key per chunk at least: more of them are then searched in memory.
    while (c.windowRoom > kMergeChunks && mergeRankSharedMemoryBytes(c) > device.maxSharedMemoryBytes) {
        const uint32_t over = ceilDiv(mergeRankSharedMemoryBytes(c) - device.maxSharedMemoryBytes, c.keyWords * 4u);
        c.windowRoom -= std::min(c.windowRoom - kMergeChunks, over);
    }
    applySubgroupRules(device, control, &c);
    const bool fits = mergeRankSharedMemoryBytes(c) <= device.maxSharedMemoryBytes && c.workgroupSize <= wanted;
    uint32_t maxCount = uint32_t(std::min<uint64_t>(row.merge.maxCount, uint64_t(kMergeChunks) * chunkKeys));
    if (!fits || maxCount <= chunkKeys) maxCount = 0;
    *launch = MergeConfig{maxCount, chunkKeys, c.workgroupSize / c.keyLanes};
    launch->wideBlockKeys = c.workgroupSize / c.wideKeyLanes;
    launch->wideMinCount = c.wideKeyLanes < c.keyLanes ? row.merge.wideMinCount : 0u;
    return c;
}

void chooseChunkSort(const DeviceFacts& device, const TuningRow& row, const TileConfig& single, uint32_t keyWidth,
                     MergeConfig* launch) {
    const uint32_t keyPasses = 8u * (keyWidth + 1);
    const uint32_t a = row.merge.chunkSortMinPasses, b = row.merge.chunkSortMainMinPasses;
    launch->chunkSortMinPasses = a <= keyPasses ? a : 0u;
    launch->chunkSortMainMinPasses = b <= keyPasses ? b : 0u;
    // The merge rounds double runs of keys, so both sides are powers of two.
    launch->chunkSort = (launch->chunkSortMinPasses != 0 || launch->chunkSortMainMinPasses != 0) &&
                        isPowerOfTwo(single.workgroupSize) && isPowerOfTwo(single.keysPerThread) &&
                        chunkSortSharedMemoryBytes(single) <= device.maxSharedMemoryBytes;
    if (!launch->chunkSort) launch->chunkSortMinPasses = launch->chunkSortMainMinPasses = 0;
}

ScanConfig chooseScanConfig(const TuningRow& row) {
    return ScanConfig{row.scan.inlineMaxTiles, row.scan.oneRangeMaxTiles, row.scan.rangeMinTiles, row.scan.itemsPerThread};
}

bool chooseTileConfig(const DeviceFacts& device, const TuningRow& row, uint32_t workgroupOverride, uint32_t keysPerThreadOverride,
                      const SubgroupControl& control, TileConfig* config, std::string* reason) {
    uint32_t deviceMaxWorkgroup = workgroupLimit(device, control);
    if (device.minSubgroupSize == 0) {
        *reason = "the device reports a subgroup size of 0";
        return false;
    }

    TileConfig c;
    if (workgroupOverride != 0) {
        if (!isPowerOfTwo(workgroupOverride) || workgroupOverride < kRadix || workgroupOverride > deviceMaxWorkgroup) {
            *reason = "workgroupSize " + std::to_string(workgroupOverride) +
                      " must be a power of two from 16 to the device's limit of " +
                      std::to_string(deviceMaxWorkgroup) +
                      (control.requiredSize != 0 ? " (maxComputeWorkgroupSubgroups x requiredSubgroupSize)" : "");
            return false;
        }
        c.workgroupSize = workgroupOverride;
    } else {
        c.workgroupSize = row.tile.workgroupSize;
        while (c.workgroupSize > deviceMaxWorkgroup) c.workgroupSize /= 2;
        if (c.workgroupSize < kRadix) {
            *reason = "the device's workgroup limit " + std::to_string(deviceMaxWorkgroup) + " is below 16";
            return false;
        }
    }
    applySubgroupRules(device, control, &c);

    if (keysPerThreadOverride != 0) {
        c.keysPerThread = keysPerThreadOverride;
        if (c.keysPerThread > kMaxKeysPerThread) {
            *reason = "keysPerThread " + std::to_string(keysPerThreadOverride) + " must be at most " +
                      std::to_string(kMaxKeysPerThread);
            return false;
        }
        if (c.tileSize() > kMaxTileSize) {
            *reason = "a tile of " + std::to_string(c.tileSize()) + " keys exceeds " + std::to_string(kMaxTileSize);
            return false;
        }
        if (reorderSharedMemoryBytes(c) > device.maxSharedMemoryBytes) {
            *reason = "a tile of " + std::to_string(c.tileSize()) + " keys needs " +
                      std::to_string(reorderSharedMemoryBytes(c)) + " bytes of shared memory; the device has " +
                      std::to_string(device.maxSharedMemoryBytes);
            return false;
        }
    } else {
        // Shrink the tile until it fits: 16 KiB of shared memory (the Vulkan minimum) still fits
        // 256 x 8 keys.
        c.keysPerThread = row.tile.keysPerThread;
        while (c.keysPerThread > 1 && reorderSharedMemoryBytes(c) > device.maxSharedMemoryBytes) c.keysPerThread /= 2;
        if (reorderSharedMemoryBytes(c) > device.maxSharedMemoryBytes) {
            *reason = "the device's shared memory (" + std::to_string(device.maxSharedMemoryBytes) +
                      " bytes) cannot hold even one key per invocation";
            return false;
        }
    }
    *config = c;
    return true;
}

} // namespace vksort
