#!/bin/bash
# Call 18: d368cc6 (h) against 3a1501e's kernels (final) side by side; start-up side by side; stats.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/d/smi.txt 2>&1
$RUN .gpu/b/h/pipeline-stats > $OUT/d/stats-h.txt 2>&1
LOGS=$OUT/d/ab32 tools/gpu-ab.sh main=.gpu/b/final/sort-test h=.gpu/b/h/sort-test -- --reps 20 \
  --keys u32 --values none,u32 --counts 2^12,2^16,2^18,2^19,2^20,2^21,2^22,2^23,2^24,2^26,2^28 --verify-max 4194304 > $OUT/d/ab32.txt 2>&1
LOGS=$OUT/d/ab64 tools/gpu-ab.sh main=.gpu/b/final/sort-test h=.gpu/b/h/sort-test -- --reps 20 \
  --keys u64 --values none,u64 --counts 2^16,2^20,2^22,2^24,2^26 --verify-max 4194304 > $OUT/d/ab64.txt 2>&1
for round in 1 2; do
  for b in final h; do
    for formats in "" --all-formats; do
      cache=$(mktemp -d)
      for t in cold warm; do
        echo "$round $b ${formats:-one-format} $t: $(__GL_SHADER_DISK_CACHE_PATH=$cache $RUN .gpu/b/$b/sort-test --count 100000 --key f32 --value u32 $formats 2>&1 | tail -1 | grep -o 'sorter created in [0-9.]* ms\|verified' | tr '\n' ' ')"
      done
      rm -rf $cache
    done
  done
done > $OUT/d/startup.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
