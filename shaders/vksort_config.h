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
#else
#include <cstdint>
#define VKSORT_U32 uint32_t
#define VKSORT_CONST constexpr uint32_t
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
VKSORT_CONST kBindingCount = 5u;

/* ---- Specialization constants ------------------------------------------------------------ */
VKSORT_CONST kSpecWorkgroupSize = 0u;  /* local_size_x of every pipeline */
VKSORT_CONST kSpecKeysPerThread = 1u;  /* tile = workgroup size * keys per thread */
VKSORT_CONST kSpecMaxSubgroups = 2u;   /* upper bound of gl_NumSubgroups, sizes shared arrays */
VKSORT_CONST kSpecFullSubgroups = 3u;  /* 1: created with REQUIRE_FULL_SUBGROUPS, lanes are dense */

/* ---- Push-constant flags ----------------------------------------------------------------- */
/* Bits 0-1: how the key's bits map to an order-preserving unsigned integer. */
VKSORT_CONST kFlagKeyUnsigned = 0u;
VKSORT_CONST kFlagKeySigned = 1u;
VKSORT_CONST kFlagKeyFloat = 2u;
VKSORT_CONST kFlagKeyTypeMask = 3u;
VKSORT_CONST kFlagDescending = 4u;      /* invert the ordered key: a stable descending sort */
VKSORT_CONST kFlagIndexValues = 8u;     /* this pass makes values = input index (argsort) */
VKSORT_CONST kFlagIndirect = 16u;       /* count and tile count come from the tables' info */
VKSORT_CONST kFlagNextHistogram = 32u;      /* the reorder also counts the next pass's digits */
VKSORT_CONST kFlagInlineScan = 64u;     /* the reorder scans the counts itself (few tiles) */

/* ---- Push constants ---------------------------------------------------------------------- */
/* One block for every pipeline, each field with one meaning; src/program.cpp fills all of them
 * for every step. 52 bytes, under the 128 bytes every device offers. */
struct VksortPushConstants {
    VKSORT_U32 count;      /* elements to sort (ignored with kFlagIndirect: tables[kInfoCount]) */
    VKSORT_U32 numTiles;   /* ceil(count / tile) (ignored with kFlagIndirect) */
    VKSORT_U32 rowStride;  /* tiles per digit row of a histogram table (the capacity's, not the count's) */
    VKSORT_U32 shift;      /* lowest key bit of the first digit this dispatch sorts */
    VKSORT_U32 endBit;     /* one past the highest key bit sorted: a digit never reaches past it */
    VKSORT_U32 flags;      /* kFlag* bits */
    VKSORT_U32 maxCount;   /* the bindings' capacity: the setup clamps indirect counts to it */
    VKSORT_U32 table;      /* histogram table of this pass: the histogram writes it, the scan
                              scans it, the reorder reads it */
    VKSORT_U32 nextTable;  /* where the reorder adds the next pass's counts (kFlagNextHistogram) */
    VKSORT_U32 zeroTable;  /* zeroed by this dispatch's tiles for a later pass to add into */
    VKSORT_U32 singleMaxCount;     /* setup: counts up to this take the single-workgroup sort */
    VKSORT_U32 inlineScanMaxTiles; /* setup: tile counts up to this let the reorder scan inline */
    VKSORT_U32 dispatchWidth;      /* setup: the most workgroups per grid row */
};
VKSORT_CONST kPushConstantsSize = 52u;

/* ---- Tables (binding kBindingTables, inside the scratch buffer), in 32-bit words ---------- */
/* [0, kInfoWords)        info: runtime count, tile count, indirect dispatch arguments
 * [kTotalsOffset, +16)   per-digit totals of the current pass, written by the scan
 * [kHistogramsOffset, ...)   kHistogramTables tables of per-tile digit counts, each digit-major:
 *                        table k at kHistogramsOffset + k * kRadix * rowStride, entry
 *                        [digit * rowStride + tile]; the scan turns a table's rows into their
 *                        exclusive prefixes in place.
 * The tables rotate (the push constants name them: table, nextTable, zeroTable): pass p reads
 * table p % 3, its reorder adds pass p + 1's counts into table (p + 1) % 3 and zeroes table
 * (p + 2) % 3 for pass p + 1 to add into. The histogram (first pass only) writes table 0 and
 * zeroes table 1. No table ever needs a separate clear. src/program.cpp computes the rotation. */
VKSORT_CONST kInfoCount = 0u;          /* the clamped element count (indirect sorts) */
VKSORT_CONST kInfoNumTiles = 1u;       /* tiles for that count */
VKSORT_CONST kInfoRequested = 2u;      /* the caller's count, copied from their buffer */
VKSORT_CONST kInfoInlineScan = 3u;     /* 1: few enough tiles for the reorder to scan inline */
VKSORT_CONST kInfoTileArgs = 4u;       /* VkDispatchIndirectCommand for histogram and reorder */
VKSORT_CONST kInfoScanArgs = 8u;       /* VkDispatchIndirectCommand for the scan */
VKSORT_CONST kInfoSingleArgs = 12u;    /* VkDispatchIndirectCommand for the single-workgroup sort */
VKSORT_CONST kInfoWords = 32u;
VKSORT_CONST kTotalsOffset = kInfoWords;
VKSORT_CONST kHistogramsOffset = kTotalsOffset + kRadix;
VKSORT_CONST kHistogramTables = 3u;


/* ---- Reorder ------------------------------------------------------------------------------- */
/* The run of one digit inside a tile covers at most two destination tiles, so the next pass's
 * counts of a tile's keys fall into at most kRadix * 2 destination tiles. */
VKSORT_CONST kNextHistogramSlots = kRadix * 2u * kRadix;

/* ---- Scan ---------------------------------------------------------------------------------- */
/* Each invocation of the scan (one wide workgroup per digit row, its size chosen by
 * chooseScanConfig in src/plan.cpp) scans this many consecutive tiles per chunk. */
VKSORT_CONST kScanItemsPerThread = 16u;

#ifndef GL_core_profile
static_assert(sizeof(VksortPushConstants) == kPushConstantsSize, "push constants are 52 bytes");
static_assert(kRadix == (1u << kDigitBits), "radix follows the digit width");
static_assert(kInfoSingleArgs + 3u <= kInfoWords, "info fits");
} /* namespace vksort */
#endif

#endif /* VKSORT_CONFIG_H */
