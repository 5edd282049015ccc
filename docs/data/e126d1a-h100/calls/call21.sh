#!/bin/bash
# Call 21: where the reorder's time goes (timing-only variants) and the warp-aggregated next counts, beside HEAD (6ef9d01) and 3a1501e; CUB in the same command.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $O/smi.txt 2>&1
B=.gpu/b
LOGS=$O/var tools/gpu-ab.sh head=$B/head/sort-test aggr=$B/aggr/sort-test noatom=$B/noatom/sort-test nosts=$B/nosts/sort-test noscan=$B/noscan/sort-test -- --reps 20 \
  --keys u32 --values none --counts 2^20,2^22,2^24 --verify-max 0 > $O/var.txt 2>&1
LOGS=$O/p32 tools/gpu-ab.sh head=$B/head/sort-test aggr=$B/aggr/sort-test -- --reps 20 \
  --keys u32 --values u32 --counts 2^16,2^20,2^24 --verify-max 1048576 > $O/p32.txt 2>&1
LOGS=$O/k64 tools/gpu-ab.sh head=$B/head/sort-test aggr=$B/aggr/sort-test -- --reps 20 \
  --keys u64 --values none,u64 --counts 2^20,2^24 --verify-max 1048576 > $O/k64.txt 2>&1
LOGS=$O/small tools/gpu-ab.sh head=$B/head/sort-test aggr=$B/aggr/sort-test -- --reps 20 \
  --keys u32 --values none --counts 2^16,2^18 --verify-max 1048576 > $O/small.txt 2>&1
.gpu/bin/cub-bench --warmup 1 --reps 20 --verify-max 0 --keys u32 --values none,u32 --counts 2^16,2^20,2^24 --json $O/cub32.json > $O/cub32.log 2>&1
.gpu/bin/cub-bench --warmup 1 --reps 20 --verify-max 0 --keys u64 --values none,u64 --counts 2^20,2^24 --json $O/cub64.json > $O/cub64.log 2>&1
$RUN $B/head/pipeline-stats > $O/stats.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
