// SPDX-License-Identifier: MIT
#include "plan.hpp"

#include <algorithm>

namespace vksort {

namespace {

// What the ranking of a tile declares (shaders/rank.glsl and common.glsl).
uint32_t rankSharedMemoryBytes(const TileConfig& config) {
    uint32_t words = config.exchangeBuffers * config.tileSize() // s_exchange
                     + kRadix * config.maxSubgroups             // s_digitCounters
                     + (config.workgroupSize + 1);              // s_subgroupTotals (one-lane subgroups)
    return words * 4u;
}

} // namespace

uint32_t singleSharedMemoryBytes(const TileConfig& config, bool) { return rankSharedMemoryBytes(config); }

uint32_t tinySharedMemoryBytes(const TileConfig& config, bool) {
    return config.workgroupSize * 2u * 4u          // sorted bits
           + config.workgroupSize * 4u             // the packed segments' first keys
           + (config.workgroupSize + 1) * 4u       // and where they start among the packed keys
           + 4u                                    // the window's end
           + (config.workgroupSize + 1) * 4u;      // workgroupExclusiveScan (one-lane subgroups)
}

uint32_t compareSortSharedMemoryBytes(const TileConfig& config, bool) {
    return config.tileSize() * 4u          // a chunk of the keys' sorted bits
           + config.workgroupSize * 4u;    // the places of the workgroup's keys
}

uint32_t chunkSortSharedMemoryBytes(const TileConfig& config, bool) {
    return config.tileSize() * (config.keyWords + 1u) * 4u; // per key: its sorted bits and its place
}

uint32_t mergeRankSharedMemoryBytes(const TileConfig& config, bool) {
    // Sorted bits of keys of config.keyWords words, for kMergeChunks chunks.
    const uint32_t block = config.workgroupSize / config.wideKeyLanes, words = config.keyWords;
    return (kMergeChunks * kMergeSamples * words // every chunk's samples
            + config.windowRoom * words          // the other chunks' windows
            + 2u * kMergeChunks                  // where the windows start and end
            + block) * 4u;                       // the wide block's places
}

uint32_t mergeWindowRoom(const TileConfig& config, uint32_t chunkKeys) {
    const uint32_t block = config.workgroupSize / config.keyLanes, wide = config.workgroupSize / config.wideKeyLanes;
    const uint32_t usual = kMergeChunks * 2u * block;
    if (wide <= block) return usual;
    return std::max(usual, (kMergeChunks - 1u) * (wide + 3u * ceilDiv(chunkKeys, kMergeSamples)));
}

uint32_t classifySharedMemoryBytes(const TileConfig& config, bool) {
    return (config.workgroupSize + 1) * 4u // workgroupExclusiveScan (one-lane subgroups)
           + kClassifyClasses * 4u         // per class: the workgroup's count, then its next member
           + 4u;                           // the least of the invocations' cuts
}

uint32_t reorderSharedMemoryBytes(const TileConfig& config, bool twin) {
    return rankSharedMemoryBytes(config)
           + 4 * kRadix * 4u       // per digit: offset, total, prefix, first destination tile
           + kNextCountSlots * 4u  // the next pass's counts
           + (twin ? 2 * 4u : 0u); // the twin's two words
}

uint32_t tileCountsSharedMemoryBytes(const TileConfig&, bool twin) { return (kRadix + (twin ? 2u : 0u)) * 4u; } // counts, the twin's two words

uint32_t scanSharedMemoryBytes(const TileConfig& config, bool twin) {
    return (config.maxSubgroups + 1) * kRadix * 4u // per subgroup and digit; the range's carry per digit
           + 4u                                     // the ticket
           + (twin ? 2 * 4u : 0u)                   // the twin's two words
           + (config.workgroupSize + 1) * 4u;       // workgroupExclusiveScan (one-lane subgroups)
}

uint32_t workgroupLimit(const DeviceFacts& device, const SubgroupControl& control) {
    uint32_t limit = std::min(device.maxWorkgroupInvocations, device.maxWorkgroupSizeX);
    if (control.requiredSize != 0 && device.maxComputeWorkgroupSubgroups != 0) {
        limit = std::min(limit, device.maxComputeWorkgroupSubgroups * control.requiredSize);
    }
    return limit;
}

bool descriptorLimitsFit(const DeviceFacts& device, uint32_t storageBuffers, const char* description,
                         std::string* reason) {
    if (device.maxPerStageStorageBuffers >= storageBuffers) return true;
    *reason = "the device allows " + std::to_string(device.maxPerStageStorageBuffers) +
              " storage buffers per shader stage (maxPerStageDescriptorStorageBuffers); vksort's pipelines bind " +
              std::to_string(storageBuffers) + (*description != 0 ? std::string(" (") + description + ")" : "");
    return false;
}

uint32_t maxElementCount(const DeviceFacts& device, const TileConfig& config, uint32_t keyBytes, uint32_t valueBytes) {
    // Positions and counts are 32-bit words; the last tile's end must not wrap.
    uint64_t limit = UINT32_MAX - config.tileSize();
    limit = std::min<uint64_t>(limit, device.maxStorageBufferRange / keyBytes);
    if (valueBytes != 0) limit = std::min<uint64_t>(limit, device.maxStorageBufferRange / valueBytes);
    // The counts tables of the capacity must fit one binding too (they always do in practice).
    uint64_t tableLimit = (device.maxStorageBufferRange / 4u - kTileTablesOffset) / (kCountTables * kRadix + 2u) * config.tileSize();
    limit = std::min(limit, tableLimit);
    // A grid of maxX * maxY workgroups bounds the tiles one dispatch can reach.
    uint64_t gridLimit = uint64_t(device.maxWorkgroupCount[0]) * device.maxWorkgroupCount[1] * config.tileSize();
    limit = std::min(limit, gridLimit);
    return uint32_t(limit);
}

SegmentLimits segmentLimits(uint32_t tinyMax, uint32_t shortTile, uint32_t mainTile, uint32_t singleMax) {
    const uint32_t shortMax = shortTile > tinyMax && shortTile < singleMax ? shortTile : tinyMax;
    const uint32_t midMax = mainTile > shortMax && mainTile < singleMax ? mainTile : shortMax;
    return SegmentLimits{tinyMax, shortMax, midMax, singleMax};
}

ScratchLayout planScratch(const TileConfig& config, uint32_t maxCount, uint32_t keyBytes, uint32_t valueBytes,
                          uint64_t alignment, const SegmentLimits* segments) {
    ScratchLayout layout;
    layout.rowStride = ceilDiv(maxCount, config.tileSize());
    if (segments != nullptr) layout.rowStride += segmentExtraTiles(maxCount, segments->singleMax);
    layout.keysOffset = 0;
    layout.keysBytes = uint64_t(maxCount) * keyBytes;
    uint64_t next = alignUp(layout.keysBytes, alignment);
    if (valueBytes != 0) {
        layout.valuesOffset = next;
        layout.valuesBytes = uint64_t(maxCount) * valueBytes;
        next = alignUp(next + layout.valuesBytes, alignment);
    }
    layout.tablesOffset = next;
    layout.tablesBytes = uint64_t(segments != nullptr ? vksortSegmentTablesWords(layout.rowStride, maxCount, segments->tinyMax,
                                                                                 segments->shortMax, segments->midMax,
                                                                                 segments->singleMax)
                                                      : vksortTablesWords(layout.rowStride)) * 4u;
    layout.variantArgsBytes = kVariantArgsWords * 4u;
    layout.variantArgsOffset = alignUp(layout.tablesOffset + layout.tablesBytes, alignment);
    layout.spareArgsOffset = alignUp(layout.variantArgsOffset + layout.variantArgsBytes, alignment);
    layout.launchBytes = kLaunchWords * 4u;
    layout.launchOffset = alignUp(layout.spareArgsOffset + layout.variantArgsBytes, alignment);
    layout.totalBytes = layout.launchOffset + layout.launchBytes;
    return layout;
}

bool planPasses(uint32_t keyBits, uint32_t beginBit, uint32_t endBit, PassPlan* plan, std::string* reason) {
    if (endBit == 0) endBit = keyBits;
    if (endBit > keyBits || beginBit >= endBit) {
        *reason = "bit range [" + std::to_string(beginBit) + ", " + std::to_string(endBit) +
                  ") must be non-empty and within the " + std::to_string(keyBits) + "-bit key";
        return false;
    }
    plan->beginBit = beginBit;
    plan->endBit = endBit;
    plan->passCount = ceilDiv(endBit - beginBit, kDigitBits);
    return true;
}

Grid gridFor(uint32_t workgroups, uint32_t maxX) {
    return Grid{vksortGridWidth(workgroups, maxX), vksortGridRows(workgroups, maxX)};
}

} // namespace vksort
