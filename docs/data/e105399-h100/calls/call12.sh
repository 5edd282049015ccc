#!/bin/bash
# Call 12 (session 3): the method split and the small tile again on 3a1501e's kernels.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/d/smi.txt 2>&1
LOGS=$OUT/d/methods tools/gpu-ab.sh auto=.gpu/b/final/sort-test scan=.gpu/m_scan.sh lb=.gpu/m_lb.sh -- \
  --keys u32 --values none,u32 --counts 2^18,2^19,2^20,2^21,393216,786432 --reps 30 > $OUT/d/methods.txt 2>&1
LOGS=$OUT/d/tiles32 tools/gpu-ab.sh k8=.gpu/b/final/sort-test k4=.gpu/kpt4.sh -- \
  --keys u32 --values none,u32 --counts 2^13,2^14,2^15,2^16,100000,2^17,2^18 > $OUT/d/tiles32.txt 2>&1
LOGS=$OUT/d/tiles64 tools/gpu-ab.sh k8=.gpu/b/final/sort-test k4=.gpu/kpt4.sh -- \
  --keys u64 --values none,u64 --counts 2^13,2^14,2^15,2^16,2^17 > $OUT/d/tiles64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
