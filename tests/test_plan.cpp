// SPDX-License-Identifier: MIT
// Planning and tuning are pure arithmetic (src/plan.cpp, src/tuning.cpp): tested here without a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "pipelines.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "variant.hpp"

#include <vksort/vksort.h>

using namespace vksort;

namespace {

DeviceFacts typicalGpu() {
    DeviceFacts f;
    f.subgroupSize = f.minSubgroupSize = f.maxSubgroupSize = 32;
    f.maxSharedMemoryBytes = 49152;
    f.maxWorkgroupInvocations = 1024;
    f.maxWorkgroupSizeX = 1024;
    f.maxWorkgroupCount[0] = f.maxWorkgroupCount[1] = f.maxWorkgroupCount[2] = 65535;
    f.maxStorageBufferRange = 0xFFFFFFFFull;
    f.minStorageBufferOffsetAlignment = 16;
    return f;
}

} // namespace

TEST_CASE("passes cover the bit range in 4-bit digits", "[plan]") {
    PassPlan plan;
    std::string reason;
    REQUIRE(planPasses(32, 0, 0, &plan, &reason));
    CHECK(plan.passCount == 8);
    CHECK(plan.endBit == 32);
    REQUIRE(planPasses(64, 0, 0, &plan, &reason));
    CHECK(plan.passCount == 16);
    REQUIRE(planPasses(32, 3, 21, &plan, &reason));
    CHECK(plan.passCount == 5);
    CHECK(plan.shift(4) == 19);
    REQUIRE(planPasses(64, 0, 40, &plan, &reason));
    CHECK(plan.passCount == 10);
    CHECK_FALSE(planPasses(32, 5, 5, &plan, &reason));
    CHECK_FALSE(planPasses(32, 9, 4, &plan, &reason));
    CHECK_FALSE(planPasses(32, 0, 33, &plan, &reason));
    CHECK_FALSE(reason.empty());
}

TEST_CASE("grids split past the device's workgroup-count limit", "[plan]") {
    Grid g = gridFor(0, 65535);
    CHECK((g.x == 0 && g.y == 0));
    g = gridFor(1, 65535);
    CHECK((g.x == 1 && g.y == 1));
    g = gridFor(65535, 65535);
    CHECK((g.x == 65535 && g.y == 1));
    g = gridFor(65536, 65535);
    CHECK((g.x == 65535 && g.y == 2));
    g = gridFor(200000, 65535);
    CHECK(uint64_t(g.x) * g.y >= 200000);
    CHECK(uint64_t(g.x) * (g.y - 1) < 200000);
}

TEST_CASE("tile configuration fits the device", "[plan]") {
    DeviceFacts f = typicalGpu();
    TileConfig c;
    std::string reason;
    SubgroupControl control;
    control.fullSubgroupsAvailable = true;
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, control, &c, &reason));
    CHECK(c.workgroupSize == tuningFor(f).tile.workgroupSize);
    CHECK(c.keysPerThread == tuningFor(f).tile.keysPerThread);
    CHECK(c.fullSubgroups);
    CHECK(c.maxSubgroups == c.workgroupSize / 32);
    CHECK(reorderSharedMemoryBytes(c) <= f.maxSharedMemoryBytes);

    // Without subgroup size control the shared arrays are sized the same, for the narrowest
    // subgroups the device reports (its size-control minimum where it reports one): the shaders
    // prove full subgroups at run time, and share counters in turns where a launch has more.
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, SubgroupControl{}, &c, &reason));
    CHECK_FALSE(c.fullSubgroups);
    CHECK(c.maxSubgroups == c.workgroupSize / 32);
    DeviceFacts varying = f;
    varying.minSubgroupSize = 8; // e.g. a device that reports 8 to 32 lanes
    REQUIRE(chooseTileConfig(varying, tuningFor(varying), 0, 0, SubgroupControl{}, &c, &reason));
    CHECK(c.maxSubgroups == c.workgroupSize / 8);
    CHECK(chooseScanTileConfig(varying, tuningFor(varying), c, SubgroupControl{}).maxSubgroups ==
          chooseScanTileConfig(varying, tuningFor(varying), c, SubgroupControl{}).workgroupSize / 8);

    // The Vulkan minimum of 16 KiB shared memory still gets a working tile.
    f.maxSharedMemoryBytes = 16384;
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, SubgroupControl{}, &c, &reason));
    CHECK(reorderSharedMemoryBytes(c) <= 16384);
    for (uint32_t keyWidth : {0u, 1u}) {
        CHECK(singleSharedMemoryBytes(chooseSingleTileConfig(f, tuningFor(f), c, SubgroupControl{}, keyWidth)) <= 16384);
    }

    // The single-workgroup sort's tile does not shrink for its second exchange buffer, which it
    // takes only where both fit: 48 KiB holds 256 x 16 keys twice, 32 KiB once. 64-bit keys get the
    // same tile over the row's wider workgroup, with as many subgroup rows as it can have.
    for (uint32_t bytes : {49152u, 32768u, 16384u}) {
        INFO(bytes << " bytes of shared memory");
        f = typicalGpu();
        f.maxSharedMemoryBytes = bytes;
        REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, control, &c, &reason));
        TileConfig single = chooseSingleTileConfig(f, tuningFor(f), c, control, 0);
        CHECK(singleSharedMemoryBytes(single) <= bytes);
        CHECK(single.exchangeBuffers == (bytes == 49152u ? 2u : 1u));
        CHECK(single.tileSize() == (bytes == 16384u ? c.tileSize() : 4096u));
        CHECK(single.workgroupSize == c.workgroupSize);
        TileConfig wide = chooseSingleTileConfig(f, tuningFor(f), c, control, 1);
        CHECK(wide.tileSize() == single.tileSize());
        // (16 KiB: a tile of 2048 keys would give 512 x 4, unlike the measured shape.)
        if (bytes == 16384u) {
            CHECK(wide.workgroupSize == single.workgroupSize);
            continue;
        }
        CHECK(wide.workgroupSize == tuningFor(f).single.workgroupSize64);
        CHECK(wide.maxSubgroups == wide.workgroupSize / 32);
        CHECK(wide.fullSubgroups);
        CHECK(singleSharedMemoryBytes(wide) <= bytes);
        CHECK(wide.exchangeBuffers == (bytes == 49152u ? 2u : 1u));
    }
    // A device whose workgroups stop short of that width keeps the 32-bit keys' shape.
    f = typicalGpu();
    f.maxWorkgroupInvocations = 256;
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, control, &c, &reason));
    CHECK(chooseSingleTileConfig(f, tuningFor(f), c, control, 1).workgroupSize == 256);
    CHECK(chooseSingleTileConfig(f, tuningFor(f), c, control, 1).tileSize() == chooseSingleTileConfig(f, tuningFor(f), c, control, 0).tileSize());

    // The tile counts count the main tile over the row's fewer invocations; the divisor halves
    // where the workgroup would fall below 16 invocations or an invocation would count more than
    // 255 keys (its 8-bit counters), down to the main tile's own shape.
    f = typicalGpu();
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, control, &c, &reason));
    TileConfig counts = chooseCountsTileConfig(f, tuningFor(f), c, control);
    CHECK(counts.tileSize() == c.tileSize());
    CHECK(counts.workgroupSize == c.workgroupSize / tuningFor(f).counts.workgroupDivisor);
    CHECK(counts.maxSubgroups == counts.workgroupSize / 32);
    CHECK(counts.fullSubgroups == (counts.workgroupSize % 32 == 0));
    TuningRow divided = tuningFor(f);
    const struct {
        uint32_t divisor, workgroup, keys, countsWorkgroup;
    } shapes[] = {{2, 256, 8, 128}, {4, 256, 8, 64},  {64, 256, 8, 16}, {64, 256, 32, 64}, {2, 16, 8, 16},
                  {3, 256, 8, 256}, {64, 32, 1, 16},  {1, 256, 8, 256}, {8, 128, 32, 32}};
    for (const auto& shape : shapes) {
        INFO("divisor " << shape.divisor << ", main tile " << shape.workgroup << " x " << shape.keys);
        divided.counts.workgroupDivisor = shape.divisor;
        REQUIRE(chooseTileConfig(f, divided, shape.workgroup, shape.keys, control, &c, &reason));
        counts = chooseCountsTileConfig(f, divided, c, control);
        CHECK(counts.workgroupSize == shape.countsWorkgroup);
        CHECK(counts.tileSize() == c.tileSize());
        CHECK(counts.maxSubgroups == std::max(1u, counts.workgroupSize / 32));
    }

    // Overrides that cannot work are refused with a reason.
    f = typicalGpu();
    CHECK_FALSE(chooseTileConfig(f, tuningFor(f), 100, 0, control, &c, &reason));
    CHECK_FALSE(chooseTileConfig(f, tuningFor(f), 2048, 0, control, &c, &reason));
    CHECK_FALSE(chooseTileConfig(f, tuningFor(f), 256, 300, control, &c, &reason));
    CHECK_FALSE(chooseTileConfig(f, tuningFor(f), 1024, 64, control, &c, &reason));
    CHECK(reason.find("at most 32") != std::string::npos);
    // Ranks are 16-bit: a made-up device with 4096-invocation workgroups and room to spare
    // still cannot take a 131072-key tile.
    f.maxWorkgroupInvocations = f.maxWorkgroupSizeX = 4096;
    f.maxSharedMemoryBytes = 1u << 20;
    CHECK_FALSE(chooseTileConfig(f, tuningFor(f), 4096, 32, control, &c, &reason));
    CHECK(reason.find("131072") != std::string::npos);
}

TEST_CASE("a required subgroup size bounds every workgroup by maxComputeWorkgroupSubgroups", "[plan]") {
    DeviceFacts f = typicalGpu();
    f.minSubgroupSize = 4;
    f.maxSubgroupSize = 32;
    f.maxComputeWorkgroupSubgroups = 32;
    SubgroupControl control;
    control.fullSubgroupsAvailable = true;
    control.requiredSize = 4; // at most 128 invocations
    TileConfig c;
    std::string reason;
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, control, &c, &reason));
    CHECK(c.workgroupSize == 128);
    CHECK(chooseSingleTileConfig(f, tuningFor(f), c, control, 0).workgroupSize == 128);
    CHECK(chooseSingleTileConfig(f, tuningFor(f), c, control, 1).workgroupSize == 128);
    CHECK_FALSE(chooseTileConfig(f, tuningFor(f), 256, 0, control, &c, &reason));
    CHECK(reason.find("maxComputeWorkgroupSubgroups") != std::string::npos);
    control.requiredSize = 0; // no pin: the device's own limits
    REQUIRE(chooseTileConfig(f, tuningFor(f), 0, 0, control, &c, &reason));
    CHECK(c.workgroupSize == tuningFor(f).tile.workgroupSize);
}

TEST_CASE("tuning table: the first matching row, and a row for every device", "[plan]") {
    DeviceFacts nvidia = typicalGpu();
    nvidia.vendorID = kVendorNvidia;
    CHECK(&tuningFor(nvidia) == &kTuningTable[0]);
    // The same vendor with another subgroup size or less shared memory falls through.
    DeviceFacts other = nvidia;
    other.subgroupSize = 64;
    CHECK(&tuningFor(other) != &kTuningTable[0]);
    other = nvidia;
    other.maxSharedMemoryBytes = 16384;
    CHECK(&tuningFor(other) != &kTuningTable[0]);
    // The last row matches anything, and every row's tile works on the smallest device once
    // chooseTileConfig clamps it.
    const TuningRow& last = kTuningTable[sizeof(kTuningTable) / sizeof(kTuningTable[0]) - 1];
    CHECK(last.match.vendorID == 0);
    CHECK(last.match.subgroupSize == 0);
    CHECK(last.match.minSharedMemoryBytes == 0);
    DeviceFacts unknown = typicalGpu();
    unknown.vendorID = 0x1234;
    CHECK(&tuningFor(unknown) == &last);
    for (const TuningRow& row : kTuningTable) {
        CHECK(isPowerOfTwo(row.tile.workgroupSize));
        CHECK(row.tile.keysPerThread >= 1);
        CHECK(row.single.keysPerThread >= row.tile.keysPerThread);
        CHECK((row.single.workgroupSize64 == 0 || isPowerOfTwo(row.single.workgroupSize64)));
        DeviceFacts small = typicalGpu();
        small.vendorID = row.match.vendorID;
        small.subgroupSize = row.match.subgroupSize != 0 ? row.match.subgroupSize : 32;
        small.maxSharedMemoryBytes = std::max(row.match.minSharedMemoryBytes, 16384u);
        TileConfig c;
        std::string reason;
        CHECK(chooseTileConfig(small, tuningFor(small), 0, 0, SubgroupControl{}, &c, &reason));
        CHECK(reorderSharedMemoryBytes(c) <= small.maxSharedMemoryBytes);
    }
}

TEST_CASE("tuning rows: the scan step's shape and the inline scan come from the row", "[plan]") {
    DeviceFacts nvidia = typicalGpu();
    nvidia.vendorID = kVendorNvidia;
    DeviceFacts unknown = typicalGpu();
    unknown.vendorID = 0x1234;
    for (const DeviceFacts& device : {nvidia, unknown}) {
        const TuningRow& row = tuningFor(device);
        const ScanConfig scan = chooseScanConfig(tuningFor(device));
        CHECK(scan.inlineMaxTiles == row.scan.inlineMaxTiles);
        CHECK(scan.oneRangeMaxTiles == row.scan.oneRangeMaxTiles);
        CHECK(scan.rangeMinTiles == row.scan.rangeMinTiles);
        CHECK(scan.itemsPerThread == row.scan.itemsPerThread);
        // The scan workgroup: the row's width where the device allows it.
        TileConfig main;
        std::string reason;
        REQUIRE(chooseTileConfig(device, tuningFor(device), 0, 0, SubgroupControl{}, &main, &reason));
        CHECK(chooseScanTileConfig(device, tuningFor(device), main, SubgroupControl{}).workgroupSize == row.scan.workgroupSize);
        DeviceFacts narrow = device;
        narrow.maxWorkgroupInvocations = narrow.maxWorkgroupSizeX = 256;
        CHECK(chooseScanTileConfig(narrow, tuningFor(narrow), main, SubgroupControl{}).workgroupSize == 256);
    }
    // The NVIDIA row's inline scan reaches 1024 tiles; devices nobody measured keep 256.
    CHECK(chooseScanConfig(tuningFor(nvidia)).inlineMaxTiles == 1024);
    CHECK(chooseScanConfig(tuningFor(unknown)).inlineMaxTiles == 256);
}

TEST_CASE("tuning rows: the compare sort's workgroup, chunk and keys fit every device", "[plan]") {
    DeviceFacts nvidia = typicalGpu();
    nvidia.vendorID = kVendorNvidia;
    TileConfig main;
    std::string reason;
    REQUIRE(chooseTileConfig(nvidia, tuningFor(nvidia), 0, 0, SubgroupControl{}, &main, &reason));
    // The row's shape where it fits: 512 invocations placing 32 keys each, chunks of 4096 words.
    CompareConfig launch;
    TileConfig c = chooseCompareTileConfig(nvidia, tuningFor(nvidia), main, SubgroupControl{}, &launch);
    CHECK(c.workgroupSize == 512);
    CHECK(c.tileSize() == 4096);
    CHECK(launch.workgroupKeys == 32);
    // Up to 8192 keys, bit ranges of P of the key's K passes up to P / K of 12288.
    CHECK(launch.maxCount == 8192);
    CHECK(launch.shareCount == 12288);
    // Devices nobody measured: the same shape, up to 2048 keys, bit ranges their share of it.
    DeviceFacts unknown = typicalGpu();
    unknown.vendorID = 0x1234;
    TileConfig unknownMain;
    REQUIRE(chooseTileConfig(unknown, tuningFor(unknown), 0, 0, SubgroupControl{}, &unknownMain, &reason));
    chooseCompareTileConfig(unknown, tuningFor(unknown), unknownMain, SubgroupControl{}, &launch);
    CHECK(launch.maxCount == 2048);
    CHECK(launch.shareCount == 2048);
    // Narrow workgroups, odd limits, little shared memory, rows without a compare sort: a power
    // of two of invocations, keys a divisor of them, whole vectors of 4 words per invocation,
    // within shared memory.
    for (uint32_t limit : {1024u, 384u, 100u, 16u, 1u}) {
        for (uint32_t shared : {49152u, 16384u, 4096u}) {
            for (TuningRow::Compare shape : {TuningRow::Compare{12288, 512, 32, 8}, TuningRow::Compare{700, 64, 24, 64},
                                             TuningRow::Compare{}}) {
                DeviceFacts device = typicalGpu();
                device.maxWorkgroupInvocations = device.maxWorkgroupSizeX = limit;
                device.maxSharedMemoryBytes = shared;
                TuningRow row = tuningFor(device);
                row.compare = shape;
                c = chooseCompareTileConfig(device, row, main, SubgroupControl{}, &launch);
                const uint32_t keys = launch.workgroupKeys;
                INFO("limit " << limit << ", shared " << shared << ", row " << shape.workgroupSize << " x "
                              << shape.wordsPerThread << ", " << shape.workgroupKeys << " keys");
                CHECK(isPowerOfTwo(c.workgroupSize));
                CHECK(c.workgroupSize <= std::max(1u, std::min(limit, shape.workgroupSize)));
                if (shared >= 16384) CHECK(c.workgroupSize * 2 > std::min(limit, shape.workgroupSize));
                CHECK(c.keysPerThread % 4 == 0);
                CHECK(keys >= 1);
                CHECK(c.workgroupSize % keys == 0);
                CHECK(keys <= std::max(1u, shape.workgroupKeys));
                CHECK(compareSortSharedMemoryBytes(c) <= shared);
            }
        }
    }
}

TEST_CASE("tuning rows: the merge sort's workgroup and limit fit every device", "[plan]") {
    DeviceFacts nvidia = typicalGpu();
    nvidia.vendorID = kVendorNvidia;
    TileConfig main;
    std::string reason;
    REQUIRE(chooseTileConfig(nvidia, tuningFor(nvidia), 0, 0, SubgroupControl{}, &main, &reason));
    // The row's shape where it fits: 1024 invocations; per 32-bit key 4 (blocks of 256), 2 (wide
    // blocks of 512) from 32769 keys, 8 per 64-bit key; up to 16 chunks of 4096 keys of either
    // width; windows of twice the usual block for every chunk, or of the wide block and three
    // sample strides (4096 / 64 keys) for every other chunk.
    MergeConfig launch;
    TileConfig c = chooseMergeTileConfig(nvidia, tuningFor(nvidia), main, SubgroupControl{}, 4096, 0, &launch);
    CHECK(c.workgroupSize == 1024);
    CHECK(c.keyLanes == 4);
    CHECK(c.wideKeyLanes == 2);
    CHECK(c.windowRoom == 15 * (512 + 3 * 64));
    CHECK(launch.blockKeys == 256);
    CHECK(launch.wideBlockKeys == 512);
    CHECK(launch.wideMinCount == 32769);
    CHECK(launch.chunkKeys == 4096);
    CHECK(launch.maxCount == 65536);
    CHECK(mergeRankSharedMemoryBytes(c) <= nvidia.maxSharedMemoryBytes);
    c = chooseMergeTileConfig(nvidia, tuningFor(nvidia), main, SubgroupControl{}, 4096, 1, &launch);
    CHECK(c.workgroupSize == 1024);
    CHECK(c.keyLanes == 8);
    CHECK(c.wideKeyLanes == 8);
    CHECK(c.keyWords == 2);
    CHECK(c.windowRoom == 16 * 2 * 128);
    CHECK(launch.wideMinCount == 0);
    CHECK(launch.blockKeys == 128);
    CHECK(launch.wideBlockKeys == 128);
    CHECK(launch.maxCount == 65536);
    CHECK(mergeRankSharedMemoryBytes(c) <= nvidia.maxSharedMemoryBytes);
    // Narrow workgroups, little shared memory, small chunks, rows without a merge sort: a power of
    // two of invocations and of lanes per key, blocks of at least 4 keys, within shared memory;
    // a limit of at most kMergeChunks chunks, and none below two.
    for (uint32_t limit : {1024u, 384u, 100u, 16u, 1u}) {
        for (uint32_t shared : {49152u, 16384u, 4096u, 1024u}) {
            for (uint32_t chunkKeys : {4096u, 1000u, 64u}) {
                for (TuningRow::Merge shape : {TuningRow::Merge{65536, 1024, 4, 8}, TuningRow::Merge{5000, 96, 3, 3},
                                               TuningRow::Merge{65536, 1024, 32, 32}, TuningRow::Merge{65536, 64, 64, 64},
                                               TuningRow::Merge{65536, 1024, 4, 8, 0, 0, 2, 40000}, TuningRow::Merge{65536, 512, 16, 4, 0, 0, 1, 1},
                                               TuningRow::Merge{}}) {
                  for (uint32_t keyWidth : {0u, 1u}) {
                    const uint32_t lanes = keyWidth == 1 ? shape.keyLanes64 : shape.keyLanes;
                    const uint32_t wideLanes = keyWidth == 0 && shape.wideKeyLanes != 0 ? shape.wideKeyLanes : lanes;
                    DeviceFacts device = typicalGpu();
                    device.maxWorkgroupInvocations = device.maxWorkgroupSizeX = limit;
                    device.maxSharedMemoryBytes = shared;
                    TuningRow row = tuningFor(device);
                    row.merge = shape;
                    c = chooseMergeTileConfig(device, row, main, SubgroupControl{}, chunkKeys, keyWidth, &launch);
                    INFO("limit " << limit << ", shared " << shared << ", chunks of " << chunkKeys << ", row "
                                  << shape.maxCount << ", " << shape.workgroupSize << " x " << lanes << ", "
                                  << 32 * (keyWidth + 1) << "-bit keys");
                    CHECK(c.keyWords == keyWidth + 1);
                    CHECK(launch.maxCount <= uint64_t(kMergeChunks) * chunkKeys);
                    CHECK(launch.maxCount <= shape.maxCount);
                    // The pipeline is created whether or not the merge sort is taken: on any
                    // device Vulkan allows (at least 128 invocations, 16 KiB) it fits.
                    CHECK(isPowerOfTwo(c.workgroupSize));
                    CHECK(isPowerOfTwo(c.keyLanes));
                    CHECK(isPowerOfTwo(c.wideKeyLanes));
                    CHECK(c.keyLanes <= std::max(1u, std::min(lanes, kMergeChunks)));
                    CHECK(c.wideKeyLanes <= c.keyLanes);
                    CHECK(c.wideKeyLanes <= std::max(1u, wideLanes));
                    CHECK(c.workgroupSize / c.keyLanes >= 4);
                    // The windows' room by the rule, or what the smallest devices have room for.
                    CHECK(c.windowRoom >= kMergeChunks);
                    CHECK(c.windowRoom <= mergeWindowRoom(c, chunkKeys));
                    if (shared >= 49152 && limit >= 1024) CHECK(c.windowRoom == mergeWindowRoom(c, chunkKeys));
                    if (limit >= 128) CHECK(c.workgroupSize <= limit);
                    if (shared >= 16384) CHECK(mergeRankSharedMemoryBytes(c) <= shared);
                    if (launch.maxCount == 0) continue;
                    CHECK(launch.maxCount > chunkKeys);
                    CHECK(launch.chunkKeys == chunkKeys);
                    CHECK(c.workgroupSize <= std::min(limit, shape.workgroupSize));
                    // Each shape's block, the wide one no smaller, and wide blocks only where they
                    // are wider.
                    CHECK(launch.blockKeys == c.workgroupSize / c.keyLanes);
                    CHECK(launch.wideBlockKeys == c.workgroupSize / c.wideKeyLanes);
                    CHECK(launch.wideBlockKeys >= launch.blockKeys);
                    CHECK(launch.wideMinCount == (c.wideKeyLanes < c.keyLanes ? shape.wideMinCount : 0u));
                    if (wideLanes >= lanes) CHECK(launch.wideMinCount == 0);
                    CHECK(mergeRankSharedMemoryBytes(c) <= shared);
                  }
                }
            }
        }
    }
}

TEST_CASE("the merge sort's chunks are sorted by comparisons for the row's pass counts, where the "
          "tile's sides are powers of two and its shared memory fits",
          "[plan]") {
    for (uint32_t shared : {49152u, 32768u, 16384u}) {
        for (uint32_t keyWidth : {0u, 1u}) {
            for (TileConfig single : {TileConfig{256, 16}, TileConfig{512, 8}, TileConfig{64, 6}, TileConfig{96, 4}}) {
                for (uint32_t minPasses : {0u, 2u, 9u, 16u, 17u}) {
                    for (uint32_t mainMinPasses : {0u, 8u, 16u}) {
                        DeviceFacts device = typicalGpu();
                        device.maxSharedMemoryBytes = shared;
                        TuningRow row = tuningFor(device);
                        row.merge.chunkSortMinPasses = minPasses;
                        row.merge.chunkSortMainMinPasses = mainMinPasses;
                        single.keyWords = keyWidth + 1;
                        INFO(single.workgroupSize << " x " << single.keysPerThread << ", " << 32 * (keyWidth + 1)
                                                  << "-bit keys, shared " << shared << ", from " << minPasses << " and "
                                                  << mainMinPasses << " passes");
                        // Per key: its sorted bits and its place.
                        CHECK(chunkSortSharedMemoryBytes(single) == single.tileSize() * (keyWidth + 2) * 4);
                        const uint32_t keyPasses = 8 * (keyWidth + 1);
                        const bool fits = isPowerOfTwo(single.workgroupSize) && isPowerOfTwo(single.keysPerThread) &&
                                          single.tileSize() * (keyWidth + 2) * 4 <= shared;
                        const uint32_t a = fits && minPasses <= keyPasses ? minPasses : 0;
                        const uint32_t b = fits && mainMinPasses <= keyPasses ? mainMinPasses : 0;
                        MergeConfig launch{65536, 4096, 256};
                        chooseChunkSort(device, row, single, keyWidth, &launch);
                        CHECK(launch.chunkSort == (a != 0 || b != 0));
                        CHECK(launch.chunkSortMinPasses == a);
                        CHECK(launch.chunkSortMainMinPasses == b);
                    }
                }
            }
        }
    }
    // The shipped rows: 64-bit keys' chunks by comparisons on the NVIDIA row's tile (512 x 8,
    // 48 KiB exactly) from 9 passes (16 for main-tile chunks), 32-bit keys' (8 passes) never.
    DeviceFacts device = typicalGpu();
    const TuningRow& row = tuningFor(device);
    const TileConfig main{256, 8, 8, true};
    for (uint32_t keyWidth : {0u, 1u}) {
        const TileConfig single = chooseSingleTileConfig(device, row, main, SubgroupControl{}, keyWidth);
        MergeConfig launch;
        chooseChunkSort(device, row, single, keyWidth, &launch);
        CHECK(launch.chunkSort == (keyWidth == 1));
        CHECK(launch.chunkSortMinPasses == (keyWidth == 1 ? 9u : 0u));
        CHECK(launch.chunkSortMainMinPasses == (keyWidth == 1 ? 16u : 0u));
    }
}

TEST_CASE("scratch layout keeps regions aligned and disjoint", "[plan]") {
    TileConfig c{256, 8, 8, true};
    for (uint32_t maxCount : {1u, 2047u, 2048u, 2049u, 1000003u}) {
        for (uint32_t valueBytes : {0u, 4u, 8u}) {
            ScratchLayout l = planScratch(c, maxCount, 8, valueBytes, 256);
            CHECK(l.rowStride == ceilDiv(maxCount, c.tileSize()));
            CHECK(l.keysBytes == uint64_t(maxCount) * 8);
            CHECK(l.valuesBytes == uint64_t(maxCount) * valueBytes);
            CHECK(l.tablesOffset % 256 == 0);
            CHECK(l.tablesOffset >= l.keysOffset + l.keysBytes);
            if (valueBytes != 0) {
                CHECK(l.valuesOffset % 256 == 0);
                CHECK(l.valuesOffset >= l.keysBytes);
                CHECK(l.tablesOffset >= l.valuesOffset + l.valuesBytes);
            }
            // The counts tables, then two words of varying bits per tile.
            CHECK(l.tablesBytes == (uint64_t(kTileTablesOffset) + (uint64_t(kCountTables) * kRadix + 2) * l.rowStride) * 4);
            CHECK(vksortVaryingOffset(l.rowStride) * 4ull + 8ull * l.rowStride == l.tablesBytes);
            // Then the pass arguments and their spare range, aligned, after everything else.
            CHECK(l.variantArgsBytes == kVariantArgsWords * 4ull);
            CHECK(l.variantArgsOffset % 256 == 0);
            CHECK(l.variantArgsOffset >= l.tablesOffset + l.tablesBytes);
            CHECK(l.spareArgsOffset % 256 == 0);
            CHECK(l.spareArgsOffset >= l.variantArgsOffset + l.variantArgsBytes);
            CHECK(l.launchOffset % 256 == 0);
            CHECK(l.launchOffset >= l.spareArgsOffset + l.variantArgsBytes);
            CHECK(l.launchBytes == kLaunchWords * 4u);
            CHECK(l.totalBytes == l.launchOffset + l.launchBytes);
        }
    }
}

TEST_CASE("the storage buffers a stage may bind: 5, and 6 when skipping constant digits or segmented", "[plan]") {
    const VksortSorterCreateFlags skip = VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT;
    const VksortSorterCreateFlags segmented = VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT;
    DeviceFacts d;
    std::string reason;
    for (VksortSorterCreateFlags flags : {VksortSorterCreateFlags(0), skip, segmented, skip | segmented}) {
        INFO("flags " << flags);
        const Variant v = sorterVariant(flags);
        const SetLayoutShape shape = setLayoutShape(v, (flags & segmented) != 0);
        const uint32_t storage = flags == 0 ? 5u : 6u;
        CHECK(shape.storageBuffers == storage);
        CHECK(shape.uniformBuffers == ((flags & skip) != 0 ? 1u : 0u));
        CHECK(shape.count == shape.storageBuffers + shape.uniformBuffers);
        const bool countBinding = std::count(shape.bindings, shape.bindings + shape.count, kBindingSegmentCountIn) == 1;
        CHECK(countBinding == (flags != 0));
        for (uint32_t limit : {4u, 5u, 6u, 96u}) {
            INFO("limit " << limit);
            d.maxPerStageStorageBuffers = limit;
            reason.clear();
            const bool fits = descriptorLimitsFit(d, shape.storageBuffers, v.description, &reason);
            CHECK(fits == (limit >= storage));
            CHECK(fits == reason.empty());
            if (!fits) CHECK(reason.find("maxPerStageDescriptorStorageBuffers") != std::string::npos);
        }
    }
}

TEST_CASE("the maximum count respects every limit", "[plan]") {
    DeviceFacts f = typicalGpu();
    TileConfig c{256, 8, 8, true};
    // A 4 GiB binding range holds 2^30 - 1 32-bit keys; without that bound, positions and the grid
    // bound the count: 65535 x 65535 tiles of 2048 keys are more than 2^32 - 2048.
    CHECK(maxElementCount(f, c, 4, 0) == 0xFFFFFFFFull / 4);
    f.maxStorageBufferRange = ~uint64_t(0) >> 1;
    CHECK(maxElementCount(f, c, 4, 0) == UINT32_MAX - c.tileSize());
    f.maxStorageBufferRange = 0xFFFFFFFFull;
    f.maxStorageBufferRange = 0xFFFFFFFFull;
    CHECK(maxElementCount(f, c, 8, 8) == 0xFFFFFFFFull / 8); // the binding range binds first
    f.maxStorageBufferRange = 128u << 20; // lavapipe's 128 MiB
    CHECK(maxElementCount(f, c, 4, 0) == (128u << 20) / 4);
    CHECK(maxElementCount(f, c, 4, 8) == (128u << 20) / 8);
    f.maxWorkgroupCount[0] = f.maxWorkgroupCount[1] = 16;
    CHECK(maxElementCount(f, c, 4, 0) == 16u * 16u * c.tileSize());
}

TEST_CASE("scan step: one workgroup per digit up to a few thousand tiles, then up to 64 ranges", "[plan]") {
    // vksort_config.h's launch rule, shared by the host's grids and an indirect sort's launch arguments,
    // with the limits of every tuning row.
    for (const TuningRow& row : kTuningTable) {
        const ScanConfig scan = chooseScanConfig(row);
        const uint32_t oneRange = scan.oneRangeMaxTiles, rangeMin = scan.rangeMinTiles;
        INFO("one range up to " << oneRange << " tiles, ranges of at least " << rangeMin);
        CHECK(scan.ranges(0) == 0);
        for (uint32_t tiles : {1u, 257u, 1025u, oneRange}) {
            CHECK(scan.ranges(tiles) == 1);
            CHECK(vksortScanRangeTiles(tiles, oneRange, rangeMin) == tiles);
            CHECK(scan.workgroups(tiles) == kRadix);
        }
        CHECK(vksortScanRangeTiles(oneRange + 1, oneRange, rangeMin) == rangeMin);
        CHECK(scan.ranges(oneRange + 1) == ceilDiv(oneRange + 1, rangeMin));
        CHECK(scan.ranges(kScanRanges * rangeMin) == kScanRanges);
        CHECK(vksortScanRangeTiles(kScanRanges * 2048, oneRange, rangeMin) == 2048);
        for (uint32_t tiles : {oneRange + 1, 8192u, 32769u, 131072u, 131073u, 1u << 22, 524287u}) {
            INFO(tiles << " tiles");
            const uint32_t ranges = scan.ranges(tiles), rangeTiles = vksortScanRangeTiles(tiles, oneRange, rangeMin);
            CHECK(scan.workgroups(tiles) == ranges);
            CHECK(ranges > 1);
            CHECK(ranges <= kScanRanges);
            CHECK(rangeTiles >= rangeMin);
            CHECK(uint64_t(ranges) * rangeTiles >= tiles);     // every tile in a range
            CHECK(uint64_t(ranges - 1) * rangeTiles < tiles);  // and no range empty
        }
    }
}

TEST_CASE("passes that run: the first, every later one whose digit varies, the lowest skipped for an odd count",
          "[plan]") {
    // The rule the shaders apply on the GPU (vksort_config.h), against a direct model: the digit of
    // pass p is bits [begin + 4p, min(begin + 4p + 4, end)) of the varying bits.
    auto varies = [](uint64_t bits, uint32_t shift, uint32_t end) {
        const uint32_t width = std::min(end - shift, kDigitBits);
        return ((bits >> shift) & ((uint64_t(1) << width) - 1)) != 0;
    };
    std::vector<uint64_t> patterns = {0, ~uint64_t(0), 1, uint64_t(1) << 63, 0xFFFF, 0xFFFFull << 24, 0x3FFFFFFF,
                                      0xFFFFFFFFull, 0xFFFFFFFF00000000ull, 0x0000FFF000000FFFull, 0x8000000000000001ull,
                                      uint64_t(1) << 31, uint64_t(1) << 32, 0xF0F0F0F0F0F0F0F0ull};
    uint64_t x = 12345;
    for (int i = 0; i < 200; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        patterns.push_back(x & (x >> 3) & (x >> 11)); // sparse bits
    }
    for (uint64_t bits : patterns) {
        for (uint32_t keyBits : {32u, 64u}) {
            for (uint32_t begin = 0; begin < keyBits; begin += 3) {
                for (uint32_t end = begin + 1; end <= keyBits; end += 5) {
                    const uint64_t b = keyBits == 32 ? bits & 0xFFFFFFFFull : bits;
                    const uint32_t lo = uint32_t(b), hi = uint32_t(b >> 32);
                    const uint32_t passes = ceilDiv(end - begin, kDigitBits);
                    std::vector<uint32_t> want = {begin};
                    uint32_t skipped = 0;
                    for (uint32_t p = 1; p < passes; ++p) {
                        const uint32_t shift = begin + p * kDigitBits;
                        if (varies(b, shift, end)) want.push_back(shift);
                        else if (skipped == 0) skipped = shift;
                    }
                    if ((passes - want.size()) % 2 == 1) want.push_back(skipped);
                    std::sort(want.begin(), want.end());
                    INFO("bits 0x" << std::hex << b << std::dec << ", range " << begin << ":" << end);
                    const uint32_t running = vksortRunningPasses(lo, hi, begin, end);
                    REQUIRE(vksortRunningPassCount(running) == want.size());
                    for (uint32_t r = 0; r < want.size(); ++r) REQUIRE(vksortRunningPassShift(running, begin, r) == want[r]);
                    // The result lands where the full pass count leaves it.
                    REQUIRE((passes - want.size()) % 2 == 0);
                }
            }
        }
    }
    // All keys equal: the first pass and, for an even pass count, one more.
    CHECK(vksortRunningPasses(0, 0, 0, 32) == 0x3u);
    CHECK(vksortRunningPasses(0, 0, 0, 28) == 0x1u);
    CHECK(vksortRunningPassShift(vksortRunningPasses(0, 0, 0, 32), 0, 1) == 4);
    // 16 low bits of 32: passes 0-3, none extra; 12 low bits: passes 0-2 and pass 3 (constant).
    CHECK(vksortRunningPasses(0xFFFF, 0, 0, 32) == 0xFu);
    CHECK(vksortRunningPasses(0xFFF, 0, 0, 32) == 0xFu);
    CHECK(vksortRunningPasses(0xFF0000FF, 0, 0, 32) == 0xC3u);
}
