// SPDX-License-Identifier: MIT
/* vksort: constants and layouts shared by the GLSL shaders and the C++ host.
 *
 * This file is the single source of truth for everything both sides must agree on: the digit
 * width, descriptor bindings, specialization-constant IDs, push-constant layout, flag bits and
 * the layout of the internal tables inside the scratch buffer. The shaders include it with
 * GL_GOOGLE_include_directive; src/ includes it as C++ and checks the layout with static_asserts.
 * Never write one of these values a second time anywhere else.
 */
#ifndef VKSORT_CONFIG_H
#define VKSORT_CONFIG_H

#ifdef GL_core_profile
#define VKSORT_U32 uint
#define VKSORT_CONST const uint
#define VKSORT_FUNC
#else
#include <cstdint>
#define VKSORT_U32 uint32_t
#define VKSORT_CONST constexpr uint32_t
#define VKSORT_FUNC constexpr inline
namespace vksort {
#endif

/* ---- Radix ------------------------------------------------------------------------------- */
/* 4-bit digits: 16 buckets per pass, 8 passes for 32-bit keys, 16 for 64-bit keys. */
VKSORT_CONST kDigitBits = 4u;
VKSORT_CONST kRadix = 16u;

/* ---- Descriptor set 0 -------------------------------------------------------------------- */
/* Every pipeline uses the same set layout; a pass reads "in" and writes "out". The host owns
 * which buffer sits behind which binding for each pass (see src/bindings.cpp). */
VKSORT_CONST kBindingKeysIn = 0u;
VKSORT_CONST kBindingKeysOut = 1u;
VKSORT_CONST kBindingValuesIn = 2u;
VKSORT_CONST kBindingValuesOut = 3u;
VKSORT_CONST kBindingTables = 4u;
/* The passes that run (the pass arguments' first kPassWords words, below) again, as a uniform
 * buffer: read through it, the reorder's digit and branches are uniform to the compilers, as
 * push constants are. */
VKSORT_CONST kBindingPasses = 5u;
/* The pass arguments (see "Passes whose digit never varies"), outside the tables: which passes
 * run and the launches of the passes after the first, written through this binding by the step
 * that decides. Only its descriptor set binds them here; every other set binds a spare range that
 * nothing writes. So no later dispatch writes what the uniform buffer and the indirect launches
 * read, and only the deciding step's barrier has to reach those reads (the indirect and uniform
 * stages). */
VKSORT_CONST kBindingPassArgs = 6u;
VKSORT_CONST kBindingCount = 7u;
/* An indirect sort's first step, the tile counts (shaders/launch.glsl), binds a set of its own
 * (src/plan.hpp, kSetLaunch): through its keys-out binding it writes the launch arguments (see
 * "Launch arguments" below), and no other set binds their range, so no later dispatch writes what
 * the indirect launches read and only its barrier has to reach those reads; through its
 * values-in binding it reads the caller's count. */
VKSORT_CONST kBindingLaunchArgs = kBindingKeysOut;
VKSORT_CONST kBindingCountIn = kBindingValuesIn;
/* A segmented sorter's tiny segments and classify step read a segment count on the GPU
 * (kFlagSegmentCountIn) through the pass arguments' binding, which no segmented kernel uses
 * otherwise: a segmented sorter's set layout has it even without skipping constant digits, and
 * every set a segmented sort with a count pushes binds the caller's buffer there (no segmented
 * step runs a sorter variant's deciding pipeline); without a count, the range the set binds
 * anyway (the tables, or a skipping sorter's spare range). */
VKSORT_CONST kBindingSegmentCountIn = kBindingPassArgs;

/* ---- Specialization constants ------------------------------------------------------------ */
VKSORT_CONST kSpecWorkgroupSize = 0u;  /* local_size_x of every pipeline */
VKSORT_CONST kSpecKeysPerThread = 1u;  /* tile = workgroup size * keys per thread */
VKSORT_CONST kSpecMaxSubgroups = 2u;   /* upper bound of gl_NumSubgroups, sizes shared arrays */
VKSORT_CONST kSpecExchangeBuffers = 3u; /* 1 or 2 tile-sized exchange buffers in shared memory (rank.glsl) */
/* The scan step's shape (the tuning row's scan fields, src/tuning.hpp): see vksortScanRangeTiles. */
VKSORT_CONST kSpecScanOneRangeMaxTiles = 4u;
VKSORT_CONST kSpecScanRangeMinTiles = 5u;
VKSORT_CONST kSpecScanItemsPerThread = 6u;
/* 1: a kernel's second pipeline in a sorter variant (src/variant.hpp): with skipping constant
 * digits, the step that decides which passes run (shaders/passes.glsl); 0 in every other
 * pipeline, which so holds none of that code. */
VKSORT_CONST kSpecVariantPipeline = 7u;
/* The tuning row's per-kernel choices (src/tuning.hpp): */
VKSORT_CONST kSpecWholeTileCopies = 8u; /* whole tiles take per-key loops without bounds tests (tile.glsl) */
VKSORT_CONST kSpecEarlyValues = 9u;     /* the reorder loads values before the keys' exchange (scatter.glsl) */
VKSORT_CONST kSpecLastPassEarly = 10u;  /* the reorder tests for the last pass before its loads (passes.glsl) */
VKSORT_CONST kSpecInlineScanLoads = 11u; /* loads in flight per invocation in the inline scan (reorder.comp) */
VKSORT_CONST kSpecCompareWorkgroupKeys = 12u; /* keys each workgroup of the compare sort places (compare_sort.comp) */
VKSORT_CONST kSpecMergeKeyLanes = 13u; /* invocations per key in the merge sort's merge step (merge_rank.comp) */
VKSORT_CONST kSpecMergeWideKeyLanes = 14u; /* the same for its wide blocks (kFlagWideBlocks) */
VKSORT_CONST kSpecMergeWindowRoom = 15u; /* the merge step's room for its windows, in keys (merge_rank.comp) */

/* ---- The merge sort (merge_rank.comp) --------------------------------------------------- */
/* The merge step's shared memory holds a window of every other chunk: room for kMergeChunks
 * chunks; and kMergeSamples keys of every chunk, evenly spaced, from which it finds the windows
 * (how many was measured beside the tuning row's merge.keyLanes64, src/tuning.hpp). */
VKSORT_CONST kMergeChunks = 16u;
VKSORT_CONST kMergeSamples = 64u;

/* ---- Push-constant flags ----------------------------------------------------------------- */
/* Bits 0-1: how the key's bits map to an order-preserving unsigned integer. */
VKSORT_CONST kFlagKeyUnsigned = 0u;
VKSORT_CONST kFlagKeySigned = 1u;
VKSORT_CONST kFlagKeyFloat = 2u;
VKSORT_CONST kFlagKeyTypeMask = 3u;
VKSORT_CONST kFlagDescending = 4u;      /* invert the ordered key: a stable descending sort */
VKSORT_CONST kFlagIndexValues = 8u;     /* this pass makes values = input index (argsort) */
VKSORT_CONST kFlagIndirect = 16u;       /* the count is read on the GPU (launch.glsl): later steps find it in the tables' info */
/* The reorder (reorder.comp): */
VKSORT_CONST kFlagInlineScan = 32u;     /* it sums the counts tables' rows itself: few tiles, no scan step */
/* The reorders and the single-workgroup sort (keys travel between passes in sort order: common.glsl): */
VKSORT_CONST kFlagMapIn = 64u;          /* it reads the caller's keys: map them to sort order as they load */
VKSORT_CONST kFlagMapOut = 128u;        /* it writes the result: map the keys back as they are stored (single) */
/* A segmented sort by offsets, after its classify step (segments.glsl): the short, mid-sized and
 * small segments come from the classify step's lists in the tables, and the passes find the large
 * segments' tile count at tables[kInfoNumTiles]. */
VKSORT_CONST kFlagSegmentLists = 256u;
/* The classify step's second dispatch: it writes the lists (segment_classify.comp). */
VKSORT_CONST kFlagClassifyPlaces = 512u;
/* A segmented sort's tiny segments and classify step: sort min(segmentCount, the word
 * segmentCountWord of kBindingSegmentCountIn) segments, a count read on the GPU. */
VKSORT_CONST kFlagSegmentCountIn = 1024u;
/* The compare sort's second dispatch (compare_sort.comp): it copies the result back into the
 * caller's ranges. */
VKSORT_CONST kFlagCopyBack = 2048u;
/* An indirect sort's tile counts (launch.glsl), in the merge or the compare sort's program: they
 * launch a workgroup per chunk of singleMaxCount keys (kLaunchSingleArgs: the merge sort's chunk
 * sort, or the compare sort and its copy) and mergeBlocks per chunk (kLaunchTileArgs: the merge
 * step) instead of the other paths. */
VKSORT_CONST kFlagChunkLaunch = 4096u;
/* The merge step (merge_rank.comp): wide blocks, fewer invocations per key (kSpecMergeWideKeyLanes
 * instead of kSpecMergeKeyLanes). */
VKSORT_CONST kFlagWideBlocks = 8192u;

/* ---- Push constants ---------------------------------------------------------------------- */
/* One block for every pipeline, each field with one meaning; src/program.cpp fills all of them
 * for every step. 88 bytes (the first 60 for every kernel but the segmented sort's), under the
 * 128 bytes every device offers. */
struct VksortPushConstants {
    VKSORT_U32 count;      /* elements to sort; with kFlagIndirect, tables[kInfoCount] instead, and for
                            * the tile counts the word of kBindingCountIn that holds the caller's count */
    VKSORT_U32 numTiles;   /* ceil(count / tile) (ignored with kFlagIndirect) */
    VKSORT_U32 rowStride;  /* tiles per counts table (the capacity's, not the count's) */
    VKSORT_U32 shift;      /* lowest key bit of the first digit this dispatch sorts */
    VKSORT_U32 endBit;     /* one past the highest key bit sorted: a digit never reaches past it */
    VKSORT_U32 flags;      /* kFlag* bits */
    VKSORT_U32 maxCount;   /* the bindings' capacity: the tile counts clamp indirect counts to it */
    VKSORT_U32 pass;       /* the scan step's and reorder's digit pass: its row of the digit totals */
    VKSORT_U32 singleMaxCount; /* indirect tile counts: counts up to this take the single-workgroup sort
                                * (with kFlagChunkLaunch: the keys per chunk) */
    VKSORT_U32 dispatchWidth;  /* indirect tile counts: the most workgroups per grid row */
    VKSORT_U32 countTable;     /* the counts table of this pass (pass % 3) */
    VKSORT_U32 nextCountTable; /* where the reorder adds the next pass's counts */
    VKSORT_U32 zeroCountTable; /* zeroed by this dispatch's tiles for a later pass */
    VKSORT_U32 inlineScanMaxTiles; /* indirect tile counts and reorders: tile counts up to this need no scan step */
    VKSORT_U32 mergeBlocks;    /* indirect tile counts with kFlagChunkLaunch: the second launch's workgroups per chunk */
    /* A segmented sort's kernels (segments.glsl): how many segments (at most, with
     * kFlagSegmentCountIn), and either their uniform size or (0) the word of kBindingTables where
     * the caller's segmentCount + 1 offsets start. */
    VKSORT_U32 segmentCount;
    VKSORT_U32 segmentSize;
    VKSORT_U32 offsetsWord;
    VKSORT_U32 tinyMaxCount;  /* segments up to this size are segment_tiny.comp's */
    VKSORT_U32 shortMaxCount; /* then up to this size segment_short.comp's (tinyMaxCount: none are) */
    VKSORT_U32 midMaxCount;   /* then up to this size segment_mid.comp's (shortMaxCount: none are) */
    VKSORT_U32 segmentCountWord; /* with kFlagSegmentCountIn: the word of kBindingSegmentCountIn that holds the count */
};
VKSORT_CONST kPushConstantsSize = 88u;

/* ---- Launch rules ------------------------------------------------------------------------ */
/* The host plans direct sorts with these (src/plan.cpp, src/program.cpp); an indirect sort's tile
 * counts apply the same functions to an indirect sort's count on the GPU. */
VKSORT_FUNC VKSORT_U32 vksortCeilDiv(VKSORT_U32 a, VKSORT_U32 b) { return a / b + (a % b != 0u ? 1u : 0u); }
/* A grid of `workgroups` in rows of at most maxX workgroups: its width and its number of rows. */
VKSORT_FUNC VKSORT_U32 vksortGridWidth(VKSORT_U32 workgroups, VKSORT_U32 maxX) {
    return workgroups < maxX ? workgroups : maxX;
}
VKSORT_FUNC VKSORT_U32 vksortGridRows(VKSORT_U32 workgroups, VKSORT_U32 maxX) {
    return workgroups == 0u ? 0u : vksortCeilDiv(workgroups, vksortGridWidth(workgroups, maxX));
}
/* Whether a sort of `count` keys is the single-workgroup sort rather than the digit passes. */
VKSORT_FUNC bool vksortSingleWorkgroup(VKSORT_U32 count, VKSORT_U32 singleMaxCount) { return count <= singleMaxCount; }
/* Whether each reorder sums the counts of all tiles itself instead of a scan step. */
VKSORT_FUNC bool vksortInlineScan(VKSORT_U32 tiles, VKSORT_U32 inlineScanMaxTiles) { return tiles <= inlineScanMaxTiles; }

/* ---- Tables (binding kBindingTables, inside the scratch buffer), in 32-bit words ---------- */
/* [0, kInfoWords)         info: runtime count, tile count, the scan's ticket
 * [kTotalsOffset, ...)    digit totals of every pass, [pass * kRadix + digit]: each pass's scan
 *                         step writes its own row
 * [kRangeTotalsOffset, ...) the ranges, [range * kRadix + digit]: where a scan step has several,
 *                         each of its workgroups writes its range's digit counts, and the last
 *                         one to finish turns them into exclusive prefixes over the ranges
 * [kRangeVaryingOffset, ...) the ranges' varying bits, [range * 2 + word] (see below)
 * [kTileTablesOffset, ...) kCountTables counts tables of kRadix * rowStride words, a tile's kRadix
 *                         words consecutive, [(table * rowStride + tile) * kRadix + digit]:
 *                         pass p reads table p % 3 (the scan step turns each digit's counts into
 *                         exclusive prefixes within each range of tiles, in place), its reorder
 *                         adds pass p + 1's counts into table (p + 1) % 3 and zeroes table
 *                         (p + 2) % 3 for pass p + 1 to add into; the tile-counts step writes
 *                         table 0 and zeroes table 1. No table needs a clearing dispatch of its
 *                         own.
 * [varyingOffset(rowStride), ...) each tile's varying bits, [tile * 2 + word], written by the
 *                         tile-counts step.
 * The pass arguments (binding kBindingPassArgs, beside the tables), written by the deciding step
 * (below): [0, kPassWords) the passes that run (also bound as a uniform buffer: kBindingPasses);
 * from kPassLaunchOffset, kPassArgsStride words per reorder r: the VkDispatchIndirectCommand of
 * reorder r (words 0-2) and of pass r's scan step (words 4-6).
 *
 * Passes whose digit never varies. The tile-counts step ORs, per tile, every key in sort order
 * XOR the first key of the input (the bits in which some key differs from it: two words, a 64-bit
 * key's low word first). The step that next sees every tile (the first scan step, or with an
 * inline scan each first reorder workgroup) ORs the tiles' words, and decides which passes run
 * (vksortRunningPasses): pass 0 always; every later pass whose digit some key varies in; and,
 * where that skips an odd number of passes, one more (a constant digit's pass is the identity of
 * a stable sort), so that the result lands where the full pass count leaves it. Reorder r (the
 * host records one per pass) sorts the digit at kPassShift + r, or from r = kPassCount on returns
 * at once. In a direct sort with scan steps (many tiles) the later scan steps and reorders
 * launch indirectly from the pass arguments, and from r = kPassCount on launch no workgroup: a
 * pass left out then costs an empty dispatch and its barrier rather than every tile's workgroup
 * loading the decision. With few tiles that load costs less than an indirect launch, and an indirect sort may take the
 * single-workgroup sort, which writes no pass arguments: there the steps return at once. */
VKSORT_CONST kMaxPasses = 16u;         /* 64-bit keys, all bits */
VKSORT_CONST kPassShift = 0u;          /* kMaxPasses words: the lowest key bit of reorder r's digit */
VKSORT_CONST kPassCount = 16u;         /* how many reorders run; the others launch nothing or return */
VKSORT_CONST kPassWords = 20u;         /* what the uniform buffer binds (kBindingPasses): 5 uvec4 */
VKSORT_CONST kInfoCount = 0u;          /* the clamped element count (indirect sorts) */
VKSORT_CONST kInfoNumTiles = 1u;       /* tiles for that count (indirect sorts) */
VKSORT_CONST kInfoRequested = 2u;      /* the caller's count, copied from their buffer (bindings objects) */
VKSORT_CONST kInfoScanTicket = 3u;     /* the scan step's workgroups that are done (scan.comp) */
/* A segmented sort by offsets: the members of the classify step's lists (segments.glsl). */
VKSORT_CONST kInfoShortMembers = 4u;
VKSORT_CONST kInfoMidMembers = 5u;
VKSORT_CONST kInfoSingleMembers = 6u;
VKSORT_CONST kInfoWords = 16u;         /* (the rest is spare: the tables after it stay 64-byte aligned) */
VKSORT_CONST kTotalsOffset = kInfoWords;
VKSORT_CONST kScanRanges = 64u;        /* the most ranges a scan step splits the tiles into */
VKSORT_CONST kRangeTotalsOffset = kTotalsOffset + kMaxPasses * kRadix;
VKSORT_CONST kRangeVaryingOffset = kRangeTotalsOffset + kScanRanges * kRadix;
VKSORT_CONST kTileTablesOffset = kRangeVaryingOffset + kScanRanges * 2u;
VKSORT_CONST kCountTables = 3u;
/* Where the tiles' varying bits start: after the counts tables of rowStride tiles. */
VKSORT_FUNC VKSORT_U32 vksortVaryingOffset(VKSORT_U32 rowStride) { return kTileTablesOffset + kCountTables * kRadix * rowStride; }
/* Every word of the tables, for every sorter: the counts tables, then each tile's varying bits. */
VKSORT_FUNC VKSORT_U32 vksortTablesWords(VKSORT_U32 rowStride) { return vksortVaryingOffset(rowStride) + 2u * rowStride; }
/* A segmented sorter's tables go on (segments.glsl): the large segments' member of each tile
 * (rowStride words); each classify workgroup's counts of its segments' short, mid-sized, small
 * and large ones and of the large ones' tiles, and its cut (8 words for each of at most
 * vksortClassifyWorkgroups); then the lists of the classes' members, each at most the capacity's
 * segments of more keys than the class below holds (the segments listed never overlap):
 * short, mid-sized and small segments' (begin, end), large ones' (begin, end, first tile). */
/* The classify step's workgroups: at most 1024, and one per 64 keys of the capacity. */
VKSORT_FUNC VKSORT_U32 vksortClassifyWorkgroups(VKSORT_U32 maxCount) {
    return maxCount / 64u >= 1024u ? 1024u : maxCount / 64u + 1u;
}
VKSORT_FUNC VKSORT_U32 vksortTileMembersOffset(VKSORT_U32 rowStride) { return vksortTablesWords(rowStride); }
VKSORT_FUNC VKSORT_U32 vksortClassifyCountsOffset(VKSORT_U32 rowStride) { return vksortTileMembersOffset(rowStride) + rowStride; }
VKSORT_CONST kClassifyClasses = 5u; /* short, mid-sized, small, large segments, large segments' tiles */
VKSORT_CONST kClassifyCounts = 8u; /* words per classify workgroup (kClassifyClasses used, then its cut) */
/* The word of a classify workgroup's row after its counts: the first segment of its share whose
 * end offset lies below its start (both clamped to the count), or kClassifyNoCut. */
VKSORT_CONST kClassifyCut = kClassifyClasses;
VKSORT_CONST kClassifyNoCut = 0xFFFFFFFFu;
VKSORT_FUNC VKSORT_U32 vksortShortListOffset(VKSORT_U32 rowStride, VKSORT_U32 maxCount) {
    return vksortClassifyCountsOffset(rowStride) + kClassifyCounts * vksortClassifyWorkgroups(maxCount);
}
VKSORT_FUNC VKSORT_U32 vksortMidListOffset(VKSORT_U32 rowStride, VKSORT_U32 maxCount, VKSORT_U32 tinyMax) {
    return vksortShortListOffset(rowStride, maxCount) + 2u * (maxCount / (tinyMax + 1u));
}
VKSORT_FUNC VKSORT_U32 vksortSingleListOffset(VKSORT_U32 rowStride, VKSORT_U32 maxCount, VKSORT_U32 tinyMax,
                                              VKSORT_U32 shortMax) {
    return vksortMidListOffset(rowStride, maxCount, tinyMax) + 2u * (maxCount / (shortMax + 1u));
}
VKSORT_FUNC VKSORT_U32 vksortLargeListOffset(VKSORT_U32 rowStride, VKSORT_U32 maxCount, VKSORT_U32 tinyMax,
                                             VKSORT_U32 shortMax, VKSORT_U32 midMax) {
    return vksortSingleListOffset(rowStride, maxCount, tinyMax, shortMax) + 2u * (maxCount / (midMax + 1u));
}
VKSORT_FUNC VKSORT_U32 vksortSegmentTablesWords(VKSORT_U32 rowStride, VKSORT_U32 maxCount, VKSORT_U32 tinyMax,
                                                VKSORT_U32 shortMax, VKSORT_U32 midMax, VKSORT_U32 singleMax) {
    return vksortLargeListOffset(rowStride, maxCount, tinyMax, shortMax, midMax) + 3u * (maxCount / (singleMax + 1u));
}
/* The pass arguments (kBindingPassArgs): the passes that run, then each pass's scan step's and
 * reorder's launch. */
VKSORT_CONST kPassLaunchOffset = kPassWords; /* where pass 0's launch words start */
VKSORT_CONST kPassArgsStride = 8u;  /* words per pass: the reorder's 3, one spare, the scan step's 3, one spare */
VKSORT_CONST kPassScanArgs = 4u;    /* where the scan step's arguments start inside a pass's words */
VKSORT_CONST kPassLaunchWords = kMaxPasses * kPassArgsStride; /* every pass's launch words */
VKSORT_CONST kPassArgsWords = kPassLaunchOffset + kPassLaunchWords;
/* The scratch words planned for a sorter variant's arguments (src/variant.hpp): the pass arguments. */
VKSORT_CONST kVariantArgsWords = kPassArgsWords;

/* ---- Launch arguments --------------------------------------------------------------------- */
/* An indirect sort's launches (binding kBindingLaunchArgs of the launch set, in a range of the
 * scratch buffer of their own), in 32-bit words: the VkDispatchIndirectCommand of each kind of
 * later step, written once by the tile counts from the count the caller's GPU work produced. */
VKSORT_CONST kLaunchTileArgs = 0u;     /* the reorders (a tile each); a segmented sort's large segments' tiles */
VKSORT_CONST kLaunchSingleArgs = 4u;   /* the single-workgroup sort; a segmented sort's small segments */
VKSORT_CONST kLaunchScanArgs = 8u;     /* the scan steps */
VKSORT_CONST kLaunchMidArgs = 12u;     /* a segmented sort's mid-sized segments (its classify step's) */
VKSORT_CONST kLaunchShortArgs = 16u;   /* and its short segments */
VKSORT_CONST kLaunchWords = 20u;

/* ---- Passes that run ------------------------------------------------------------------------ */
/* Whether bits [shift, min(shift + 4, endBit)) of a key's varying bits (lo: bits 0-31, hi: bits
 * 32-63) hold a set bit: whether some key's digit of the pass at `shift` differs from another's. */
VKSORT_FUNC bool vksortDigitVaries(VKSORT_U32 lo, VKSORT_U32 hi, VKSORT_U32 shift, VKSORT_U32 endBit) {
    VKSORT_U32 width = endBit - shift < kDigitBits ? endBit - shift : kDigitBits;
    VKSORT_U32 bits = shift >= 32u ? hi >> (shift - 32u) : lo >> shift;
    if (shift < 32u && shift + kDigitBits > 32u) bits |= hi << (32u - shift); /* a digit across the words */
    return (bits & ((1u << width) - 1u)) != 0u;
}
#ifdef GL_core_profile
#define VKSORT_BIT_COUNT(x) uint(bitCount(x))
#define VKSORT_LOWEST_BIT(x) uint(findLSB(x))
#else
constexpr uint32_t vksortBitCount(uint32_t x) { return x == 0u ? 0u : (x & 1u) + vksortBitCount(x >> 1); }
constexpr uint32_t vksortLowestBit(uint32_t x) { return x == 0u ? 0xFFFFFFFFu : (x & 1u) != 0u ? 0u : 1u + vksortLowestBit(x >> 1); }
#define VKSORT_BIT_COUNT(x) vksortBitCount(x)
#define VKSORT_LOWEST_BIT(x) vksortLowestBit(x)
#endif
/* The passes that run over bits [beginBit, endBit), as a mask (bit p: pass p): pass 0, every later
 * pass whose digit varies, and where that leaves an odd number skipped the lowest skipped one too
 * (a digit every key shares: its pass keeps every key in place). */
VKSORT_FUNC VKSORT_U32 vksortRunningPasses(VKSORT_U32 lo, VKSORT_U32 hi, VKSORT_U32 beginBit, VKSORT_U32 endBit) {
    VKSORT_U32 passes = vksortCeilDiv(endBit - beginBit, kDigitBits);
    VKSORT_U32 all = passes >= 32u ? 0xFFFFFFFFu : (1u << passes) - 1u;
    VKSORT_U32 running = 1u;
    for (VKSORT_U32 p = 1u; p < passes; ++p) {
        running |= vksortDigitVaries(lo, hi, beginBit + p * kDigitBits, endBit) ? 1u << p : 0u;
    }
    if ((passes - VKSORT_BIT_COUNT(running)) % 2u != 0u) running |= 1u << VKSORT_LOWEST_BIT(all & ~running);
    return running;
}
/* How many reorders run, and the lowest key bit of the digit reorder r sorts (r below that count):
 * the passes of vksortRunningPasses in order. */
VKSORT_FUNC VKSORT_U32 vksortRunningPassCount(VKSORT_U32 running) { return VKSORT_BIT_COUNT(running); }
VKSORT_FUNC VKSORT_U32 vksortRunningPassShift(VKSORT_U32 running, VKSORT_U32 beginBit, VKSORT_U32 r) {
    for (VKSORT_U32 i = 0u; i < r; ++i) running &= running - 1u;
    return beginBit + VKSORT_LOWEST_BIT(running) * kDigitBits;
}

/* ---- Reorder ------------------------------------------------------------------------------- */
/* The run of one digit inside a tile covers at most two destination tiles, so the next pass's
 * counts of a tile's keys fall into at most kRadix * 2 destination tiles. */
VKSORT_CONST kNextCountSlots = kRadix * 2u * kRadix;

/* ---- Scan step ------------------------------------------------------------------------------ */
/* By tile count. Up to oneRangeMaxTiles: one workgroup per digit scans that digit's counts of all
 * tiles, itemsPerThread consecutive tiles per invocation per chunk. More: the tiles split into
 * ranges of consecutive tiles (at least rangeMinTiles, at most kScanRanges ranges), one workgroup
 * each, which scans all 16 digits of its range, a tile's 64 bytes per invocation, so that the step
 * reads and writes whole cache lines on many multiprocessors; it writes the range's totals, and
 * the last workgroup to finish scans those and writes the pass's digit totals. The two limits and
 * itemsPerThread are the tuning row's (src/tuning.hpp); the shaders get them as specialization
 * constants. */
VKSORT_FUNC VKSORT_U32 vksortScanRangeTiles(VKSORT_U32 tiles, VKSORT_U32 oneRangeMaxTiles, VKSORT_U32 rangeMinTiles) {
    return tiles <= oneRangeMaxTiles ? tiles
           : vksortCeilDiv(tiles, kScanRanges) > rangeMinTiles ? vksortCeilDiv(tiles, kScanRanges)
                                                               : rangeMinTiles;
}
VKSORT_FUNC VKSORT_U32 vksortScanRanges(VKSORT_U32 tiles, VKSORT_U32 oneRangeMaxTiles, VKSORT_U32 rangeMinTiles) {
    return tiles == 0u ? 0u : vksortCeilDiv(tiles, vksortScanRangeTiles(tiles, oneRangeMaxTiles, rangeMinTiles));
}
/* The scan step's workgroups: one per digit for one range, else one per range. */
VKSORT_FUNC VKSORT_U32 vksortScanWorkgroups(VKSORT_U32 tiles, VKSORT_U32 oneRangeMaxTiles, VKSORT_U32 rangeMinTiles) {
    return vksortScanRanges(tiles, oneRangeMaxTiles, rangeMinTiles) == 1u ? kRadix
                                                                          : vksortScanRanges(tiles, oneRangeMaxTiles, rangeMinTiles);
}

#ifndef GL_core_profile
static_assert(sizeof(VksortPushConstants) == kPushConstantsSize, "push constants are 88 bytes");
static_assert(kRadix == (1u << kDigitBits), "radix follows the digit width");
static_assert(kRangeTotalsOffset % 4u == 0u && kTileTablesOffset % 4u == 0u, "counts rows are read as 16-byte vectors (scan.comp, reorder.comp)");
static_assert(kInfoWords % 4u == 0u, "the totals and ranges stay 16-byte aligned");
static_assert(kPassShift + kMaxPasses <= kPassCount && kPassCount < kPassWords && kPassWords % 4u == 0u &&
                  kPassWords <= kPassLaunchOffset, "the passes that run come first, in whole uvec4s");
static_assert(kInfoScanTicket < kInfoWords, "info fits");
static_assert(kLaunchTileArgs + 3u <= kLaunchSingleArgs && kLaunchSingleArgs + 3u <= kLaunchScanArgs &&
                  kLaunchScanArgs + 3u <= kLaunchMidArgs && kLaunchMidArgs + 3u <= kLaunchShortArgs &&
                  kLaunchShortArgs + 3u <= kLaunchWords, "launch arguments fit");
static_assert(kInfoSingleMembers < kInfoWords, "the segments' info fits");
static_assert(kClassifyCut < kClassifyCounts, "a classify workgroup's counts and cut fit its row");
} /* namespace vksort */
#endif

#endif /* VKSORT_CONFIG_H */
