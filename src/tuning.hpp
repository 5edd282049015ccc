// SPDX-License-Identifier: MIT
// Tuning: every number and code choice made by measurement, one row per device class, and the
// configurations that follow from a row and the device's limits (clamped so that every row fits
// every Vulkan 1.1 device). A new device class is one new row; the measurement behind each value
// is written beside it.
#pragma once

#include <cstdint>
#include <string>

#include "plan.hpp"

namespace vksort {

// A format's bit in a row's per-format choices: key width index (0: 32-bit, 1: 64-bit) and value
// width index (0: none, 1: 32-bit or argsort index, 2: 64-bit).
constexpr uint32_t formatBit(uint32_t keyWidth, uint32_t valueWidth) { return 1u << (keyWidth * 3u + valueWidth); }
constexpr uint32_t kAllFormats = 0x3Fu;

// Every per-device choice, by what it tunes. Those under reorder and single reach the shaders as
// specialization constants (shaders/vksort_config.h, kSpec*); the others shape the launches.
struct TuningRow {
    // Which devices the row is for: the first row whose keys all match chooses. 0 matches any.
    struct Match {
        uint32_t vendorID = 0;             // VkPhysicalDeviceProperties::vendorID
        uint32_t subgroupSize = 0;         // the device's default subgroup size
        uint32_t minSharedMemoryBytes = 0; // the row applies from this much shared memory per workgroup
    } match;
    // The tile of the tile counts and the reorder: workgroupSize * keysPerThread keys.
    struct Tile {
        uint32_t workgroupSize = 0;
        uint32_t keysPerThread = 0;
    } tile;
    // The tile counts step of a sort (shaders/tile_counts.comp) counts the tile above in workgroups
    // of workgroupSize / workgroupDivisor invocations, keysPerThread * workgroupDivisor keys each:
    // more loads in flight per invocation (a power of two, chooseCountsTileConfig).
    struct Counts {
        uint32_t workgroupDivisor = 1;
    } counts;
    // The reorder's code.
    struct Reorder {
        bool wholeTileCopies = true;  // whole tiles' loops without bounds tests (shaders/tile.glsl)
        uint32_t earlyValues = 0;     // formats that load values before the keys' exchange (scatter.glsl)
        uint32_t lastPassEarly = 0;   // formats that test for the last pass before the keys' loads (passes.glsl)
        uint32_t inlineScanLoads = 4; // loads in flight per invocation in the inline scan (reorder.comp)
    } reorder;
    // The single-workgroup sort: keys per invocation over the main workgroup, which sets the
    // largest count sorted in one dispatch; for 64-bit keys the same tile over workgroupSize64
    // invocations where the device allows it (0: the 32-bit keys' shape), and only with at least
    // minKeysPerThread64 keys each; up to exchangeBuffers tile-sized exchange buffers where they
    // fit beside the tile (shaders/rank.glsl); its loops' whole-tile copies.
    struct Single {
        uint32_t keysPerThread = 0;
        uint32_t workgroupSize64 = 0;
        uint32_t minKeysPerThread64 = 0;
        uint32_t exchangeBuffers = 1;
        bool wholeTileCopies = false;
    } single;
    // Direct sorts of up to maxCount keys compare every pair instead (shaders/compare_sort.comp;
    // which sorts take it: vksortTakesCompareSort in the public header):
    // workgroups of workgroupSize invocations that each place workgroupKeys keys, over chunks of
    // workgroupSize * wordsPerThread words of keys in shared memory (halved until they fit).
    struct Compare {
        uint32_t maxCount = 0;
        uint32_t workgroupSize = 0;
        uint32_t workgroupKeys = 0;
        uint32_t wordsPerThread = 0;
        // Bit ranges of P of the key's K passes take up to P / K of shareCount keys, and never more
        // than maxCount (0: maxCount's share).
        uint32_t shareCount = 0;
    } compare;
    // Direct sorts of up to maxCount keys (of either width) that the compare sort does not take,
    // above the single-workgroup sort's count (which sorts take it: vksortTakesMergeSort in the
    // public header), sort chunks of that sort's tile (or of the main tile, src/program.cpp) in
    // one dispatch and merge them in another (shaders/merge_rank.comp), in workgroups of
    // workgroupSize invocations, keyLanes (a power of two) per 32-bit key and keyLanes64 per
    // 64-bit key; direct sorts of at least wideMinCount 32-bit keys with wideKeyLanes (no more
    // than keyLanes; 0: none) in wider blocks. Sorts of at least chunkSortMinPasses passes sort
    // the chunks by comparisons (shaders/chunk_sort.comp, always on the single-workgroup sort's
    // tile) instead of a pass per digit; of at least chunkSortMainMinPasses where main-tile chunks
    // by passes would hold the count (0: never). Sorts in one workgroup follow the same counts,
    // the main tile's up to its keys.
    struct Merge {
        uint32_t maxCount = 0;
        uint32_t workgroupSize = 0;
        uint32_t keyLanes = 0;
        uint32_t keyLanes64 = 0;
        uint32_t chunkSortMinPasses = 0;
        uint32_t chunkSortMainMinPasses = 0;
        uint32_t wideKeyLanes = 0;
        uint32_t wideMinCount = 0;
    } merge;
    // Sorts of up to inlineMaxTiles tiles have no scan step: each reorder sums the counts of all
    // tiles itself. Above, the scan step: its workgroup (as wide as the device allows up to
    // workgroupSize), up to how many tiles one workgroup per digit scans them all (itemsPerThread
    // tiles per invocation per chunk), and above that the smallest range of tiles per workgroup.
    struct Scan {
        uint32_t inlineMaxTiles = 0;
        uint32_t workgroupSize = 0;
        uint32_t oneRangeMaxTiles = 0;
        uint32_t rangeMinTiles = 0;
        uint32_t itemsPerThread = 0;
    } scan;
    // The segmented sort: segments of up to tinyKeys keys take a workgroup of that many
    // invocations, an invocation per key (shaders/segment_tiny.comp), whose dispatch launches at
    // most launchThreads invocations, looping over the segments (shaders/segments.glsl); segments
    // of up to shortTile's keys a workgroup of that tile each (shaders/segment_short.comp).
    struct Segments {
        uint32_t tinyKeys = 0;
        uint32_t launchThreads = 0;
        Tile shortTile;
    } segments;
};

constexpr uint32_t kVendorNvidia = 0x10DE;

// NVIDIA, 32-wide subgroups, 48 KiB of shared memory (H100, driver 580; the H200 runs the same row).
constexpr TuningRow nvidiaRow() {
    TuningRow r;
    r.match.vendorID = kVendorNvidia;
    r.match.subgroupSize = 32;
    r.match.minSharedMemoryBytes = 48u * 1024u;
    // Sweeps of 128 x 8 to 256 x 16 at 2^16 to 2^24 keys: 128 x 8 was 16% slower at 2^24, 256 x 5
    // to 7 slower from 2^20 up, 256 x 16 12% slower at 2^24.
    r.tile.workgroupSize = 256;
    r.tile.keysPerThread = 8;
    // u32 keys at 2^24 on the H200: the tile counts took 27 us in 128 x 16 against 31 in 256 x 8
    // (the sort 0.4-0.6% faster, u32:u32 0.4-0.8%, 2^22 0.5%); 64-bit keys the same; 64 x 32 and
    // 32 x 64 no faster for 32-bit keys, 11% slower for 64-bit.
    r.counts.workgroupDivisor = 2;
    // The reorders are bound by instruction issue: the tests against `valid` cost about 3% at 2^24
    // keys (4% for u32:u32 in loadValues alone).
    r.reorder.wholeTileCopies = true;
    // Early loads made u32:u32 1-2% faster and u64:u64 2% slower (their live registers).
    r.reorder.earlyValues = formatBit(0, 1);
    // u64 keys alone were 1% faster at 2^16 testing before the loads; u32:u32 2.5-4% and u64 keys
    // with values 0.5-1.5% faster testing after the ranking.
    r.reorder.lastPassEarly = formatBit(1, 0);
    // Eight loads in flight were no faster for 32-bit keys.
    r.reorder.inlineScanLoads = 4;
    // 256 x 16 (4096 keys in one dispatch): 512 x 8 and 1024 x 4 were 2-4% slower for 32-bit keys;
    // for 64-bit keys 512 x 8 was 3-9% faster than 256 x 16.
    r.single.keysPerThread = 16;
    r.single.workgroupSize64 = 512;
    r.single.minKeysPerThread64 = 8;
    // A second buffer saves a barrier per exchange: u32:u32 4-4.5% faster at 1024 to 4096 keys,
    // other formats within 1%.
    r.single.exchangeBuffers = 2;
    // Copies in its loops made creating a sorter of every format from a cold cache 36% slower,
    // for loops that run once per sort.
    r.single.wholeTileCopies = false;
    // u32 and u64 keys, alone and with u32 values, at 1024 to 16384 keys on the H200: 512 x 8
    // words with 32 keys per workgroup was fastest at 1024 to 8192 keys (u32 4096: 0.0116 ms; 256
    // x 32 with 32 keys 0.0138, 64 keys 0.0161, 16 keys 0.0173); the passes take 0.048 (u32) and
    // 0.095 ms (u64) from 8192 to 16384 keys, where this took 0.032 and 0.057 at 12288 keys and
    // 0.051 and 0.094 at 16384. Over 3 of 8 passes (bits 0:12), 8192 f32 keys with indices took
    // 0.0259 ms against 0.0250 for the passes, hence the share. Over all bits the merge sort won
    // from 8193 keys (12288: u32 0.0205 ms against 0.0326, u64:u32 0.0386 against 0.0576), over
    // 3 to 5 of 8 passes the compare sort still up to the share of 12288 (u32 at 4608 over bits
    // 0:12: 0.0128 against 0.0151), and over 6 from 8193 keys again, hence the cap of 8192.
    r.compare.maxCount = 8192;
    r.compare.shareCount = 12288;
    r.compare.workgroupSize = 512;
    r.compare.workgroupKeys = 32;
    r.compare.wordsPerThread = 8;
    // u32 and u64 keys, alone and with u32 values, on the H200: 16384 u32 keys in 0.026 ms and
    // 65536 in 0.033 against 0.048 and 0.047 for the passes (u64 16384: 0.048 against 0.096),
    // with 1024 invocations, 4 per key (one per key: 0.042 at 65536; 8 per key, or 512
    // invocations: 2-7% slower there): a key's searches are a chain of dependent loads, and these
    // few keys leave the GPU room for more invocations, each with a shorter chain.
    // Over 2 of 8 passes (bits 0:8), 65536 keys took 0.023 ms against 0.015 for the passes,
    // 32768 0.0175 against 0.0177, hence the share; over one pass (bits 0:4), 8192 keys 0.0151
    // against 0.0120, hence none for one pass (vksortTakesMergeSort).
    r.merge.maxCount = 65536;
    r.merge.workgroupSize = 1024;
    r.merge.keyLanes = 4;
    // 32-bit keys on the H200, u32 alone and with u32 values: 2 per key (blocks of 512, half the
    // workgroups, all resident at once) 4-8% faster at 36864 to 65536 keys (u32 65536: 0.0308 ms
    // against 0.0327); over 6 and 8 chunks of 4096 (an indirect sort's capacity) 5-6% slower, over
    // main-tile chunks 11-17% slower (too few workgroups); hence direct sorts from 9 chunks of 4096.
    // 8 per key instead of 4: 2-5% faster up to 16384 keys, 9-12% slower at 24576 and 32768.
    r.merge.wideKeyLanes = 2;
    r.merge.wideMinCount = 8 * 4096 + 1;
    // 64-bit keys with 8 per key: blocks of 128 keys, so the windows of 16 chunks fit beside
    // each other as 32-bit keys' do with 4. On the H200, u64 keys: 65536 in 0.065 ms against
    // 0.095 for the passes, 32768 (chunks of 2048) in 0.038 against 0.048 for 8 chunks of 4096 with
    // 4 per key; u64:u32 and u64:u64 alike. With 64 samples per chunk (kMergeSamples) instead of
    // 32, 1-5% faster from 16384 to 65536 keys: their windows of 256 keys then hold a block of 128
    // more often (32-bit keys had 64 already).
    r.merge.keyLanes64 = 8;
    // Chunks by comparisons against passes on the H200, u64 keys alone and with u32 values: at
    // 36864 keys (chunks of 4096) 2-28% faster over 9 to 14 passes (65536 over 16: 0.0489 ms
    // against 0.0652); at 16384 and 32768 (chunks of 2048 by passes) 5-11% faster over 16
    // passes, mixed over 14 (u64 3% slower, u64:u32 2-5% faster), 3-38% slower over 8 to 12;
    // 32-bit keys over 8 passes, in 512 x 8: u32 within 1% at 49152-65536 (u32:u32 5% faster),
    // 10-31% slower at 8193-32768 (chunks of 2048 by passes). In one workgroup, 512 to 2048
    // keys over 16 passes: 10-22% faster (2048 u64: 0.0237 ms against 0.0287), over 10: 8-25%
    // slower.
    r.merge.chunkSortMinPasses = 9;
    r.merge.chunkSortMainMinPasses = 16;
    // The inline scan beat a scan step up to 1024 tiles and lost from 1536.
    r.scan.inlineMaxTiles = 1024;
    // One range up to 3072 tiles: ranges lost up to 11% at 1536-2048 tiles, tied at 3072 and won
    // 0.8-3% from about 3400. Ranges of at least 256 tiles and 16 tiles per invocation per chunk
    // are the shapes the ranged scan step was measured with. A workgroup of 512 on the H200: 2^23
    // keys 1.6-2.4% faster than with 1024, 2^24 0.9-1.5%, 2^22 0.4-0.8%, 2^26 within 0.3%, u32 to
    // u64:u32; 256 was faster to 2^23 but up to 1% slower at 2^24 and 2^26; one range up to 4096
    // tiles 1-3% slower at 2^23.
    r.scan.workgroupSize = 512;
    r.scan.oneRangeMaxTiles = 3072;
    r.scan.rangeMinTiles = 256;
    r.scan.itemsPerThread = 16;
    // 128: u32:u32 on the H200, 2^18 segments of 1-32 keys 0.117 ms (64: 0.124), 4096 x 100 keys
    // 0.021 (64, which gives them the short tile: 0.049), 2^16 segments of 64-128 keys 0.288
    // (0.720); 256 no faster on the first, and a key's comparisons grow with its segment.
    r.segments.tinyKeys = 128;
    // 2^18: about what an H100 or H200 keeps resident (132 multiprocessors x 2048 invocations), so
    // that a class's workgroups all run at once; not swept.
    r.segments.launchThreads = 1u << 18;
    // 64 x 8 (512 keys): u32:u32 4096 x 512 keys 0.054 ms and 10^4 log-normal segments (mean
    // 840) 0.558 ms on the H200, against 0.061 and 0.561 for 128 x 4 and 0.205 and 0.705 for no
    // short class (those segments on the 2048-key main tile).
    r.segments.shortTile = {64, 8};
    return r;
}

// Every other device: not measured; the NVIDIA row's shapes, clamped to the device, with the
// inline scan up to 256 tiles, the limit it had before it was measured.
constexpr TuningRow otherRow() {
    TuningRow r = nvidiaRow();
    r.match = TuningRow::Match{};
    r.scan.inlineMaxTiles = 256;
    // Comparisons grow with the square of the count: on a device slower than the H200 in them
    // the passes win sooner, so not past 2048 keys.
    r.compare.maxCount = 2048;
    r.compare.shareCount = 0;
    return r;
}

inline constexpr TuningRow kTuningTable[] = {nvidiaRow(), otherRow()};
const TuningRow& tuningFor(const DeviceFacts& device);

// Picks the tile configuration for a device; overrides of 0 mean "choose". Returns false with a
// reason when an override or the device cannot work.
bool chooseTileConfig(const DeviceFacts& device, const TuningRow& row, uint32_t workgroupOverride, uint32_t keysPerThreadOverride,
                      const SubgroupControl& control, TileConfig* config, std::string* reason);

// The configuration of the single-workgroup sort of keys of `keyWidth` (0: 32-bit, 1: 64-bit),
// derived from the main one. Its tile size, the largest count one dispatch sorts, is the same for
// both widths.
TileConfig chooseSingleTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main, const SubgroupControl& control,
                                  uint32_t keyWidth);

// The tile counts step's workgroup: the main tile over the row's fewer invocations
// (TuningRow::Counts).
TileConfig chooseCountsTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                  const SubgroupControl& control);

// The scan step's workgroup: as wide as the device allows up to the row's scanWorkgroupSize and
// its shared memory fits, so that one chunk covers many tiles.
TileConfig chooseScanTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main, const SubgroupControl& control);

// The tiny segments' workgroup: the row's tinyKeys invocations, within the device's limits.
TileConfig chooseTinyTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                const SubgroupControl& control);

// The short segments' tile: the row's shortTile, its workgroup within the device's limits (and at
// least kRadix invocations, as every ranking workgroup), no larger than the main tile.
TileConfig chooseShortTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                 const SubgroupControl& control);

// The compare sort's workgroup (TileConfig::tileSize(): the words of keys it holds at a time) and
// its launch (*launch: the row's limit, the workgroup, the keys each workgroup places), within the
// device's limits.
TileConfig chooseCompareTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                   const SubgroupControl& control, CompareConfig* launch);

// The merge step's workgroup and the merge sort's launch for keys of `keyWidth` (0: 32-bit, 1:
// 64-bit) (*launch: its limit, at most kMergeChunks chunks of `chunkKeys`, the single-workgroup
// sort's tile; 0 where fewer than two fit), within the device's limits.
TileConfig chooseMergeTileConfig(const DeviceFacts& device, const TuningRow& row, const TileConfig& main,
                                 const SubgroupControl& control, uint32_t chunkKeys, uint32_t keyWidth, MergeConfig* launch);

// Which merge sorts of keys of `keyWidth` (0: 32-bit, 1: 64-bit) sort their chunks by
// comparisons (shaders/chunk_sort.comp) on `single`, the single-workgroup sort's tile of that
// width (launch->chunkSort and its pass counts): those the row's pass counts allow for the key's
// passes, where the tile's sides are powers of two and its shared memory fits; none otherwise.
void chooseChunkSort(const DeviceFacts& device, const TuningRow& row, const TileConfig& single, uint32_t keyWidth,
                     MergeConfig* launch);

// The row's inline-scan and scan-step limits.
ScanConfig chooseScanConfig(const TuningRow& row);

} // namespace vksort
