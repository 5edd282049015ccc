#!/bin/bash
# Call 20: h3 (no division for one range) against main and h2 at the one-range sizes; test_gpu on h3.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
LOGS=$OUT/d/ab32 tools/gpu-ab.sh main=.gpu/b/final/sort-test h2=.gpu/b/h2/sort-test h3=.gpu/b/h3/sort-test -- --reps 20 \
  --keys u32 --values none,u32 --counts 2^22,2^23,2^24 --verify-max 4194304 > $OUT/d/ab32.txt 2>&1
LOGS=$OUT/d/ab64 tools/gpu-ab.sh main=.gpu/b/final/sort-test h2=.gpu/b/h2/sort-test h3=.gpu/b/h3/sort-test -- --reps 20 \
  --keys u64 --values none,u64 --counts 2^22,2^23,2^24 --verify-max 4194304 > $OUT/d/ab64.txt 2>&1
LOGS=$OUT/d/check RUN="$RUN" timeout 200 tools/gpu-check.sh .gpu/b/h3 tests > $OUT/d/gpu-check.txt 2>&1
echo "gpu-check rc $?" >> $OUT/d/gpu-check.txt
cd $OUT && tar czf d.tgz d && rm -rf d
