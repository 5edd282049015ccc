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
/* The histogram counts two passes' digits at once: a byte of the sorted bits. */
VKSORT_CONST kByteValues = 256u;

/* ---- Descriptor set 0 -------------------------------------------------------------------- */
/* Every pipeline uses the same set layout; a pass reads "in" and writes "out". The host owns
 * which buffer sits behind which binding for each pass (see src/bindings.cpp). */
VKSORT_CONST kBindingKeysIn = 0u;
VKSORT_CONST kBindingKeysOut = 1u;
VKSORT_CONST kBindingValuesIn = 2u;
VKSORT_CONST kBindingValuesOut = 3u;
VKSORT_CONST kBindingTables = 4u;
VKSORT_CONST kBindingCount = 5u;

/* ---- Specialization constants ------------------------------------------------------------ */
VKSORT_CONST kSpecWorkgroupSize = 0u;  /* local_size_x of every pipeline */
VKSORT_CONST kSpecKeysPerThread = 1u;  /* tile = workgroup size * keys per thread */
VKSORT_CONST kSpecMaxSubgroups = 2u;   /* upper bound of gl_NumSubgroups, sizes shared arrays */
VKSORT_CONST kSpecFullSubgroups = 3u;  /* 1: created with REQUIRE_FULL_SUBGROUPS, lanes are dense */
VKSORT_CONST kSpecFallbackPeriod = 4u; /* testing: 0, or N to force look-back fallbacks (reorder.comp) */
VKSORT_CONST kSpecExchangeBuffers = 5u; /* 1 or 2 tile-sized exchange buffers in shared memory (rank.glsl) */

/* ---- Push-constant flags ----------------------------------------------------------------- */
/* Bits 0-1: how the key's bits map to an order-preserving unsigned integer. */
VKSORT_CONST kFlagKeyUnsigned = 0u;
VKSORT_CONST kFlagKeySigned = 1u;
VKSORT_CONST kFlagKeyFloat = 2u;
VKSORT_CONST kFlagKeyTypeMask = 3u;
VKSORT_CONST kFlagDescending = 4u;      /* invert the ordered key: a stable descending sort */
VKSORT_CONST kFlagIndexValues = 8u;     /* this pass makes values = input index (argsort) */
VKSORT_CONST kFlagIndirect = 16u;       /* count and tile count come from the tables' info */
/* The scan method's reorder (reorder_scan.comp): */
VKSORT_CONST kFlagInlineScan = 32u;     /* it sums the counts tables' rows itself: few tiles, no scan step */
VKSORT_CONST kFlagNextCounts = 64u;     /* it also counts the next pass's digits */
/* The reorders and the single-workgroup sort (keys travel between passes in sort order: common.glsl): */
VKSORT_CONST kFlagMapIn = 128u;         /* it reads the caller's keys: map them to sort order as they load */
VKSORT_CONST kFlagMapOut = 256u;        /* it writes the result: map the keys back as they are stored */

/* ---- Push constants ---------------------------------------------------------------------- */
/* One block for every pipeline, each field with one meaning; src/program.cpp fills all of them
 * for every step. 68 bytes, under the 128 bytes every device offers. */
struct VksortPushConstants {
    VKSORT_U32 count;      /* elements to sort (ignored with kFlagIndirect: tables[kInfoCount]) */
    VKSORT_U32 numTiles;   /* ceil(count / tile) (ignored with kFlagIndirect) */
    VKSORT_U32 rowStride;  /* tiles per tile-status table (the capacity's, not the count's) */
    VKSORT_U32 shift;      /* lowest key bit of the first digit this dispatch sorts */
    VKSORT_U32 endBit;     /* one past the highest key bit sorted: a digit never reaches past it */
    VKSORT_U32 flags;      /* kFlag* bits */
    VKSORT_U32 maxCount;   /* the bindings' capacity: the setup clamps indirect counts to it */
    VKSORT_U32 pass;       /* the reorder's digit pass: its row of the digit totals */
    VKSORT_U32 statusTable;    /* the reorder's tile-status table (and ticket): pass % 2 */
    VKSORT_U32 nextStatusTable; /* the reorder: the table (and ticket) the next pass uses, which it zeroes */
    VKSORT_U32 singleMaxCount; /* setup: counts up to this take the single-workgroup sort */
    VKSORT_U32 dispatchWidth;  /* setup: the most workgroups per grid row */
    VKSORT_U32 histogramTiles; /* histogram (and setup): tiles counted per histogram workgroup */
    VKSORT_U32 countTable;     /* scan method: the counts table of this pass (pass % 3) */
    VKSORT_U32 nextCountTable; /* scan method: where the reorder adds the next pass's counts */
    VKSORT_U32 zeroCountTable; /* scan method: zeroed by this dispatch's tiles for a later pass */
    VKSORT_U32 inlineScanMaxTiles; /* setup: tile counts up to this need no scan step */
};
VKSORT_CONST kPushConstantsSize = 68u;

/* ---- Launch rules ------------------------------------------------------------------------ */
/* The host plans direct sorts with these (src/plan.cpp, src/program.cpp); the setup dispatch
 * applies the same functions to an indirect sort's count on the GPU. */
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
/* Scan method: whether each reorder sums the counts of all tiles itself instead of a scan step. */
VKSORT_FUNC bool vksortInlineScan(VKSORT_U32 tiles, VKSORT_U32 inlineScanMaxTiles) { return tiles <= inlineScanMaxTiles; }

/* ---- Tables (binding kBindingTables, inside the scratch buffer), in 32-bit words ---------- */
/* [0, kInfoWords)         info: runtime count, tile count, indirect arguments, tickets
 * [kTotalsOffset, ...)    digit totals of every pass, [pass * kRadix + digit]: with the look-back
 *                         the setup zeroes them and the histogram adds every pass's counts; with
 *                         the scan each pass's scan step writes its own row
 * [kRangeTotalsOffset, ...) the scan method's ranges, [range * kRadix + digit]: where a scan step
 *                         has several, each of its workgroups writes its range's digit counts, and
 *                         the last one to finish turns them into exclusive prefixes over the ranges
 * [kTileTablesOffset, ...) kTileTables tables of kRadix * rowStride words, a tile's kRadix words
 *                         consecutive, [(table * rowStride + tile) * kRadix + digit], used one of
 *                         two ways by a sort, depending on its method (src/program.cpp):
 *   look-back: tile-status tables 0 and 1. Pass p uses table p % 2 and zeroes the other for
 *              pass p + 1 (the histogram zeroes table 0 for pass 0). Each word is a state in bits
 *              30-31 and a count in bits 0-29 (see kStatus*), written with atomicMax only, so a
 *              word never goes back to a less advanced state.
 *   scan:      counts tables 0 to 2: pass p reads table p % 3 (the scan step turns each digit's
 *              counts into exclusive prefixes within each range of tiles, in place), its reorder
 *              adds pass p + 1's counts into table (p + 1) % 3 and zeroes table (p + 2) % 3 for
 *              pass p + 1 to add into;
 *              the tile-counts step writes table 0 and zeroes table 1. No table needs a clearing
 *              dispatch of its own. */
VKSORT_CONST kInfoCount = 0u;          /* the clamped element count (indirect sorts) */
VKSORT_CONST kInfoNumTiles = 1u;       /* tiles for that count (indirect sorts) */
VKSORT_CONST kInfoRequested = 2u;      /* the caller's count, copied from their buffer */
VKSORT_CONST kInfoFallbacks = 3u;      /* look-backs that counted a predecessor's tile themselves */
VKSORT_CONST kInfoTileArgs = 4u;       /* VkDispatchIndirectCommand for the reorders (a tile each) */
VKSORT_CONST kInfoSingleArgs = 8u;     /* VkDispatchIndirectCommand for the single-workgroup sort */
VKSORT_CONST kInfoTickets = 12u;       /* the reorders' tile tickets, one per status table */
VKSORT_CONST kInfoHistogramArgs = 16u; /* VkDispatchIndirectCommand for the histogram */
VKSORT_CONST kInfoScanArgs = 20u;      /* VkDispatchIndirectCommand for the scan steps */
VKSORT_CONST kInfoInlineScan = 23u;    /* 1: few enough tiles for the reorders to scan inline (indirect) */
VKSORT_CONST kInfoScanTicket = 24u;    /* the scan step's workgroups that are done (scan.comp) */
VKSORT_CONST kInfoWords = 28u;
VKSORT_CONST kMaxPasses = 16u;         /* 64-bit keys, all bits */
VKSORT_CONST kTotalsOffset = kInfoWords;
VKSORT_CONST kScanRanges = 64u;        /* the most ranges a scan step splits the tiles into */
VKSORT_CONST kRangeTotalsOffset = kTotalsOffset + kMaxPasses * kRadix;
VKSORT_CONST kTileTablesOffset = kRangeTotalsOffset + kScanRanges * kRadix;
VKSORT_CONST kTileTables = 3u;         /* the scan method's counts tables; the look-back uses two */
VKSORT_CONST kStatusTables = 2u;
VKSORT_CONST kCountTables = 3u;

/* A tile-status word: what a tile has published about one digit. */
VKSORT_CONST kStatusNotReady = 0u;            /* nothing yet */
VKSORT_CONST kStatusReady = 1u << 30;         /* the tile's own count of the digit */
VKSORT_CONST kStatusInclusive = 2u << 30;     /* the count in this tile and all before it */
VKSORT_CONST kStatusStateMask = 3u << 30;
VKSORT_CONST kStatusValueMask = (1u << 30) - 1u; /* counts fit 30 bits: at most 2^30 - 1 keys */

/* ---- Look-back ----------------------------------------------------------------------------- */
/* Polls of a predecessor's status before the waiting workgroup counts that tile itself (the
 * decoupled fallback): a workgroup never waits on another without bound. */
VKSORT_CONST kLookbackPolls = 4u;

/* ---- Scan method ---------------------------------------------------------------------------- */
/* The run of one digit inside a tile covers at most two destination tiles, so the next pass's
 * counts of a tile's keys fall into at most kRadix * 2 destination tiles. */
VKSORT_CONST kNextCountSlots = kRadix * 2u * kRadix;
/* The scan step, by tile count. Up to kScanOneRangeMaxTiles: one workgroup per digit scans that
 * digit's counts of all tiles, kScanItemsPerThread consecutive tiles per invocation per chunk.
 * More: the tiles split into ranges of consecutive tiles (at least kScanRangeMinTiles, at most
 * kScanRanges ranges), one workgroup each, which scans all 16 digits of its range, a tile's 64
 * bytes per invocation, so that the step reads and writes whole cache lines on many
 * multiprocessors; it writes the range's totals, and the last workgroup to finish scans those
 * and writes the pass's digit totals. (Measured on the H100: docs/PERFORMANCE.md.) */
VKSORT_CONST kScanItemsPerThread = 16u;
VKSORT_CONST kScanOneRangeMaxTiles = 3072u;
VKSORT_CONST kScanRangeMinTiles = 256u;
VKSORT_FUNC VKSORT_U32 vksortScanRangeTiles(VKSORT_U32 tiles) {
    return tiles <= kScanOneRangeMaxTiles ? tiles
           : vksortCeilDiv(tiles, kScanRanges) > kScanRangeMinTiles ? vksortCeilDiv(tiles, kScanRanges)
                                                                   : kScanRangeMinTiles;
}
VKSORT_FUNC VKSORT_U32 vksortScanRanges(VKSORT_U32 tiles) {
    return tiles == 0u ? 0u : vksortCeilDiv(tiles, vksortScanRangeTiles(tiles));
}
/* The scan step's workgroups: one per digit for one range, else one per range. */
VKSORT_FUNC VKSORT_U32 vksortScanWorkgroups(VKSORT_U32 tiles) {
    return vksortScanRanges(tiles) == 1u ? kRadix : vksortScanRanges(tiles);
}

#ifndef GL_core_profile
static_assert(sizeof(VksortPushConstants) == kPushConstantsSize, "push constants are 68 bytes");
static_assert(kRadix == (1u << kDigitBits), "radix follows the digit width");
static_assert(kRangeTotalsOffset % 4u == 0u && kTileTablesOffset % 4u == 0u, "counts rows are read as 16-byte vectors (scan.comp, reorder_scan.comp)");
static_assert(kStatusTables <= kTileTables && kCountTables <= kTileTables, "both methods fit the tile tables");
static_assert(kInfoWords % 4u == 0u, "the totals and ranges stay 16-byte aligned");
static_assert(kInfoSingleArgs + 3u <= kInfoTickets && kInfoTickets + kStatusTables <= kInfoHistogramArgs &&
                  kInfoHistogramArgs + 3u <= kInfoScanArgs && kInfoScanArgs + 3u <= kInfoInlineScan &&
                  kInfoInlineScan < kInfoScanTicket && kInfoScanTicket < kInfoWords, "info fits");
} /* namespace vksort */
#endif

#endif /* VKSORT_CONFIG_H */
