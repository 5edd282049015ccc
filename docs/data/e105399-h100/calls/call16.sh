#!/bin/bash
# Call 16: ranged scan step with a last-workgroup scan of the ranges (f64: 64 ranges, f16: 16)
# against main and d (range sums in the reorder).
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
$RUN .gpu/b/f64/pipeline-stats > $OUT/d/stats-f64.txt 2>&1
LOGS=$OUT/d/f32 tools/gpu-ab.sh main=.gpu/b/final/sort-test d=.gpu/b/d/sort-test f16=.gpu/b/f16/sort-test f64=.gpu/b/f64/sort-test -- \
  --keys u32 --values none,u32 --counts 3145728,2^22,2^23,2^24,2^26,2^28 --verify-max 16777216 > $OUT/d/f32.txt 2>&1
LOGS=$OUT/d/f64 tools/gpu-ab.sh main=.gpu/b/final/sort-test f16=.gpu/b/f16/sort-test f64=.gpu/b/f64/sort-test -- \
  --keys u64 --values none,u64 --counts 2^22,2^24 --verify-max 16777216 > $OUT/d/f64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
