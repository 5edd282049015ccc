// SPDX-License-Identifier: MIT
/* vksort: the kernels, a row each. shaders/CMakeLists.txt compiles every SPIR-V variant from these
 * rows and src/kernels.hpp turns them into the Kernel enum and the table from which the sorter
 * creates, lists, picks and destroys its pipelines and sizes their shared memory;
 * tests/test_pipelines.cpp expects its names. A new kernel is a new row (and its
 * shaders/<source>.comp, and the function that gives its shared memory in src/plan.hpp): see
 * docs/DESIGN.md.
 *
 * Columns: the enum name; the name that starts its variants' names (its SPIR-V's and its
 * pipelines'); the shader, shaders/<source>.comp; 1 if it has a variant per key width (_k1, _k2: VKSORT_KEY_WORDS); 1 if it has one per
 * value width (_v0, _v1, _v2: VKSORT_VALUE_WORDS); 1 if it has a _shuffle twin for devices with
 * subgroup shuffles (VKSORT_SHUFFLE=1); 1 if it has a twin that sorter variants run
 * (src/variant.hpp; the _skip twin, VKSORT_SKIP_PASSES=1); 1 if, in such a variant, some steps
 * run a second pipeline of that twin, specialized with kSpecVariantPipeline; 1 if only sorters
 * created with VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT create it (compiled with
 * VKSORT_SEGMENTED=1: segment_counts and segment_reorder are the tile counts and the reorder with
 * tiles that start at segment starts), 2 for the same by the classify step's lists of segments
 * (VKSORT_SEGMENTED=2); the tile it is specialized with (0:
 * the main tile, 1: the single-workgroup sort's, 2: the scan's wide workgroup, 3: the tiny
 * segments' workgroup, 4: the short segments' tile, 5: the compare sort's, 6: the merge step's, 7: the
 * main tile for the single-workgroup sort's kernel, the single_main rows; 8: the main tile over the
 * tile counts' workgroup, TuningRow::Counts); the C++ function
 * (src/plan.hpp) that gives the shared memory it declares for that tile, in bytes.
 * The reorder has no _shuffle twin: ranking in registers takes registers that otherwise keep more
 * of its workgroups resident.
 * chunk_sort sorts by comparisons, in workgroups of the single-workgroup sort's tile, the merge
 * sort's chunks and one-workgroup sorts for the pass counts the tuning row gives it.
 * single_main is the single-workgroup sort on the main tile: sorts that fit it, and the merge
 * sort's chunks where kMergeChunks of them hold the count, take half the steps per pass of the
 * single rows' larger tile. A row built from the same source with the same defines as an earlier
 * row (single_main's variants, the single ones') embeds no second copy of the SPIR-V.
 * Rows are in the order pipelines are created and listed. One row per line, nothing else on it:
 * CMake reads these lines with a regular expression. */
VKSORT_KERNEL(TileCounts, tile_counts, tile_counts, 1, 0, 0, 1, 0, 0, 8, tileCountsSharedMemoryBytes)
VKSORT_KERNEL(Scan, scan, scan, 0, 0, 0, 1, 1, 0, 2, scanSharedMemoryBytes)
VKSORT_KERNEL(Reorder, reorder, reorder, 1, 1, 0, 1, 1, 0, 0, reorderSharedMemoryBytes)
VKSORT_KERNEL(Single, single, single, 1, 1, 1, 0, 0, 0, 1, singleSharedMemoryBytes)
VKSORT_KERNEL(SingleMain, single_main, single, 1, 1, 1, 0, 0, 0, 7, singleSharedMemoryBytes)
VKSORT_KERNEL(CompareSort, compare_sort, compare_sort, 1, 1, 0, 0, 0, 0, 5, compareSortSharedMemoryBytes)
VKSORT_KERNEL(ChunkSort, chunk_sort, chunk_sort, 1, 1, 0, 0, 0, 0, 1, chunkSortSharedMemoryBytes)
VKSORT_KERNEL(MergeRank, merge_rank, merge_rank, 1, 1, 0, 0, 0, 0, 6, mergeRankSharedMemoryBytes)
VKSORT_KERNEL(SegmentTiny, segment_tiny, segment_tiny, 1, 1, 0, 0, 0, 1, 3, tinySharedMemoryBytes)
VKSORT_KERNEL(SegmentClassify, segment_classify, segment_classify, 0, 0, 0, 0, 0, 1, 0, classifySharedMemoryBytes)
VKSORT_KERNEL(SegmentShort, segment_short, segment_short, 1, 1, 1, 0, 0, 1, 4, singleSharedMemoryBytes)
VKSORT_KERNEL(SegmentMid, segment_mid, segment_mid, 1, 1, 1, 0, 0, 1, 0, singleSharedMemoryBytes)
VKSORT_KERNEL(SegmentSingle, segment_single, segment_single, 1, 1, 1, 0, 0, 1, 1, singleSharedMemoryBytes)
VKSORT_KERNEL(SegmentCounts, segment_counts, tile_counts, 1, 0, 0, 0, 0, 1, 0, tileCountsSharedMemoryBytes)
VKSORT_KERNEL(SegmentReorder, segment_reorder, reorder, 1, 1, 0, 0, 0, 1, 0, reorderSharedMemoryBytes)
VKSORT_KERNEL(SegmentListCounts, segment_list_counts, tile_counts, 1, 0, 0, 0, 0, 2, 0, tileCountsSharedMemoryBytes)
VKSORT_KERNEL(SegmentListReorder, segment_list_reorder, reorder, 1, 1, 0, 0, 0, 2, 0, reorderSharedMemoryBytes)
