#!/bin/bash
# Call 17: ranged scan step, ranges of at least 512 / 1024 / 2048 tiles (at most 64 ranges), one
# range without the ticket; against main.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
$RUN .gpu/b/g512/pipeline-stats > $OUT/d/stats-g512.txt 2>&1
LOGS=$OUT/d/g32 tools/gpu-ab.sh main=.gpu/b/final/sort-test g512=.gpu/b/g512/sort-test g1024=.gpu/b/g1024/sort-test g2048=.gpu/b/g2048/sort-test -- \
  --keys u32 --values none,u32 --counts 3145728,2^22,2^23,2^24,2^25,2^26,2^28 --verify-max 4194304 > $OUT/d/g32.txt 2>&1
LOGS=$OUT/d/g64 tools/gpu-ab.sh main=.gpu/b/final/sort-test g512=.gpu/b/g512/sort-test g1024=.gpu/b/g1024/sort-test g2048=.gpu/b/g2048/sort-test -- \
  --keys u64 --values none,u64 --counts 3145728,2^22,2^23,2^24 --verify-max 4194304 > $OUT/d/g64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
