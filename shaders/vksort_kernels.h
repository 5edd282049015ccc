/* vksort: the kernels, a row each. shaders/CMakeLists.txt compiles every SPIR-V variant from these
 * rows and src/kernels.hpp turns them into the Kernel enum and the table from which the sorter
 * creates, lists, picks and destroys its pipelines; tests/test_pipelines.cpp expects its names.
 * A new kernel is a new row (and its shaders/<source>.comp): see docs/DESIGN.md.
 *
 * Columns: the enum name; the shader, shaders/<source>.comp, which also starts its variants'
 * names; 1 if it has a variant per key width (_k1, _k2: VKSORT_KEY_WORDS); 1 if it has one per
 * value width (_v0, _v1, _v2: VKSORT_VALUE_WORDS); 1 if it has a _shuffle twin for devices with
 * subgroup shuffles (VKSORT_SHUFFLE=1); the tile it is specialized with (0: the main tile, 1: the
 * single-workgroup sort's, 2: the scan's wide workgroup); the offset method that uses it (0: both,
 * 1: look-back, 2: scan), so a sorter that never takes a method does not compile its kernels.
 * Rows are in the order pipelines are created and listed. One row per line, nothing else on it:
 * CMake reads these lines with a regular expression. */
VKSORT_KERNEL(Setup, setup, 0, 0, 0, 0, 0)
VKSORT_KERNEL(Histogram, histogram, 1, 0, 0, 0, 1)
VKSORT_KERNEL(TileCounts, tile_counts, 1, 0, 0, 0, 2)
VKSORT_KERNEL(Scan, scan, 0, 0, 0, 2, 2)
VKSORT_KERNEL(Reorder, reorder, 1, 1, 0, 0, 1)
VKSORT_KERNEL(ReorderScan, reorder_scan, 1, 1, 0, 0, 2)
VKSORT_KERNEL(Single, single, 1, 1, 1, 1, 0)
