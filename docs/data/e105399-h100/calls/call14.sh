#!/bin/bash
# Call 14: the inline scan with 16-byte loads, up to 1024 tiles, no look-back (build a), against
# main (auto) and the old inline loop up to 1024 tiles (i1024, scan forced).
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
$RUN .gpu/b/a/pipeline-stats > $OUT/d/stats-a.txt 2>&1
LOGS=$OUT/d/inl32 tools/gpu-ab.sh main=.gpu/b/final/sort-test old=.gpu/s_i1024_k8.sh new=.gpu/b/a/sort-test -- \
  --keys u32 --values none,u32 --counts 2^16,2^18,2^19,786432,917504,2^20,1310720,1572864,2^21 > $OUT/d/inl32.txt 2>&1
LOGS=$OUT/d/inl64 tools/gpu-ab.sh main=.gpu/b/final/sort-test old=.gpu/s_i1024_k8.sh new=.gpu/b/a/sort-test -- \
  --keys u64 --values none,u64 --counts 2^18,786432,2^20,1310720,1572864 > $OUT/d/inl64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
