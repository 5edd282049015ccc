#!/bin/bash
# Call 51: tot3 (the totals path a branch of its own; the producer a loop) beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R $B/tot3/pipeline-stats > $OUT/ps/tot3.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step tot3 main=$B/main/sort-test tot3=$B/tot3/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^14,2^16,2^18,2^20,2^21,2^22,2^24 --verify-max 4194304
