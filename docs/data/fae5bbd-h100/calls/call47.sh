#!/bin/bash
# Call 47: where tot's cost on paths that do not read totals comes from: totS (consumer only, timing at sizes that never read totals),
# totC (producer and zeroing only), totR (total loaded after the loop, producer in a loop of 4) beside main and tot.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step safe main=$B/main/sort-test tot=$B/tot/sort-test totS=$B/totS/sort-test totC=$B/totC/sort-test totR=$B/totR/sort-test -- --reps 30 --keys u32 --values none --counts 2^16,2^18,2^24 --verify-max 262144
step safe2 main=$B/main/sort-test tot=$B/tot/sort-test totS=$B/totS/sort-test totC=$B/totC/sort-test totR=$B/totR/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^24 --verify-max 0
step valid main=$B/main/sort-test tot=$B/tot/sort-test totC=$B/totC/sort-test totR=$B/totR/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^20,2^21 --verify-max 4194304
