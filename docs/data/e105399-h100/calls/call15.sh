#!/bin/bash
# Call 15: ranged scan step (d: inline up to 1024 tiles; d4k: up to 4096) against main.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
$RUN .gpu/b/d/pipeline-stats > $OUT/d/stats-d.txt 2>&1
LOGS=$OUT/d/big32 tools/gpu-ab.sh main=.gpu/b/final/sort-test d=.gpu/b/d/sort-test d4k=.gpu/b/d4k/sort-test -- \
  --keys u32 --values none,u32 --counts 2^21,3145728,2^22,2^23,2^24,2^25,2^26,2^28 --verify-max 16777216 > $OUT/d/big32.txt 2>&1
LOGS=$OUT/d/big64 tools/gpu-ab.sh main=.gpu/b/final/sort-test d=.gpu/b/d/sort-test d4k=.gpu/b/d4k/sort-test -- \
  --keys u64 --values none,u64 --counts 2^21,2^22,2^24 --verify-max 16777216 > $OUT/d/big64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
