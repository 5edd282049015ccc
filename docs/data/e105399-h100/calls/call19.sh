#!/bin/bash
# Call 19: h2 (one range without range prefix, non-coherent per-digit scan) against main and h at
# the one-range sizes; then gpu-check on h2.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
LOGS=$OUT/d/ab32 tools/gpu-ab.sh main=.gpu/b/final/sort-test h=.gpu/b/h/sort-test h2=.gpu/b/h2/sort-test -- --reps 20 \
  --keys u32 --values none,u32 --counts 2^20,2^22,2^23,2^24 --verify-max 4194304 > $OUT/d/ab32.txt 2>&1
LOGS=$OUT/d/ab64 tools/gpu-ab.sh main=.gpu/b/final/sort-test h=.gpu/b/h/sort-test h2=.gpu/b/h2/sort-test -- --reps 20 \
  --keys u64 --values none,u64 --counts 2^22,2^23,2^24 --verify-max 4194304 > $OUT/d/ab64.txt 2>&1
$RUN .gpu/b/h2/pipeline-stats > $OUT/d/stats-h2.txt 2>&1
LOGS=$OUT/d/check RUN="$RUN" timeout 330 tools/gpu-check.sh .gpu/b/h2 tests accept fallback subgroups example > $OUT/d/gpu-check.txt 2>&1
echo "gpu-check rc $?" >> $OUT/d/gpu-check.txt
cd $OUT && tar czf d.tgz d && rm -rf d
