#!/bin/bash
# Call 32: main (943af76) beside 6ef9d01 at every format's single-workgroup, small and large sizes, CUB in the same command.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
B=.gpu/b
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $O/smi.txt 2>&1
LOGS=$O/ab32 RUN="$R" timeout 200 tools/gpu-ab.sh head=$B/head/sort-test main=$B/final2/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^12,2^16,2^20,2^24 --verify-max 1048576 > $O/ab32.txt 2>&1
LOGS=$O/ab64 RUN="$R" timeout 200 tools/gpu-ab.sh head=$B/head/sort-test main=$B/final2/sort-test -- --reps 20 --keys u64 --values none,u64 --counts 2^12,2^16,2^20,2^24 --verify-max 1048576 > $O/ab64.txt 2>&1
.gpu/bin/cub-bench --warmup 1 --reps 20 --verify-max 0 --keys u32 --values none,u32 --counts 2^12,2^16,2^20,2^24 --json $O/cub32.json > $O/cub32.log 2>&1
.gpu/bin/cub-bench --warmup 1 --reps 20 --verify-max 0 --keys u64 --values none,u64 --counts 2^12,2^16,2^20,2^24 --json $O/cub64.json > $O/cub64.log 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
