#!/bin/bash
# Call 33: reorders with two exchange buffers (xb2), tile counts with nibble counters (tcn), the
# inline scan's per-quad sums reduced by shuffles before the shared atomics (iq), beside main
# (943af76 = head); then timing-only: the inline scan done twice (i2), reorders empty (remp),
# reorders and scan steps empty (aemp).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { # name, then gpu-ab arguments
  local n=$1; shift
  mkdir -p $OUT/$n
  LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1
  (cd $OUT && tar czf $n.tgz $n && rm -rf $n)
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/smi.txt 2>&1
step v32 head=$B/final2/sort-test xb2=$B/xb2/sort-test tcn=$B/tcn/sort-test iq=$B/iq/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^16,2^18,2^20,2^21,2^24 --verify-max 1048576
step v64 head=$B/final2/sort-test xb2=$B/xb2/sort-test tcn=$B/tcn/sort-test -- --reps 20 --keys u64 --values none,u64 --counts 2^16,2^24 --verify-max 1048576
step t head=$B/final2/sort-test i2=$B/i2/sort-test remp=$B/remp/sort-test aemp=$B/aemp/sort-test -- --reps 20 --keys u32 --values none --counts 2^18,2^20,2^21,2^22,2^24 --verify-max 0
step v28 head=$B/final2/sort-test tcn=$B/tcn/sort-test xb2=$B/xb2/sort-test -- --reps 10 --keys u32 --values none --counts 2^28 --verify-max 0
